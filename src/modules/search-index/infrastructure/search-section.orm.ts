import { Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';
import { primaryIdColumn } from '../../../database/columns';

/** One section (text under a heading) of an indexed page: what search results show and excerpt. */
@Entity('search_sections')
export class SearchSectionOrm {
  @PrimaryColumn(primaryIdColumn({ name: 'space_id' }))
  @ForeignKey('spaces', { onDelete: 'CASCADE' })
  spaceId: string;

  @PrimaryColumn({ name: 'page_id', type: 'varchar', length: 64 })
  pageId: string;

  @PrimaryColumn({ type: 'integer' })
  position: number;

  /** Heading anchor; '' for the text before the first heading. */
  @Column({ name: 'section_id', type: 'text' })
  sectionId: string;

  @Column({ type: 'text' })
  title: string;

  @Column({ type: 'text' })
  body: string;

  @Column({ type: 'text' })
  grams: string;

  @Column({ type: 'tsvector' })
  tsv: string;
}
