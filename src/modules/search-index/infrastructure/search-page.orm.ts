import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { primaryIdColumn } from '../../../database/columns';

/**
 * One document page of a space's current revision in the full-text index. `tsv` weighs the
 * title (A), description and headings (B), body (C), and holds CJK n-grams (title A, rest B);
 * it is computed by PostgreSQL from these columns in the row's `config`, so a change of the
 * space language re-indexes in SQL, without parsing any page. GIN index on (space_id, tsv)
 * (btree_gin), created by the migration.
 */
@Entity('search_pages')
@Index('search_pages_tsv_idx', { synchronize: false })
export class SearchPageOrm {
  @PrimaryColumn(primaryIdColumn({ name: 'space_id' }))
  @ForeignKey('spaces', { onDelete: 'CASCADE' })
  spaceId: string;

  @PrimaryColumn({ name: 'page_id', type: 'varchar', length: 64 })
  pageId: string;

  @Column({ name: 'document_hash', type: 'char', length: 64, nullable: true })
  documentHash: string | null;

  @Column({ type: 'text' })
  title: string;

  @Column({ type: 'text' })
  description: string;

  @Column({ type: 'text' })
  path: string;

  /** Titles of the enclosing pages, outermost first. */
  @Column({ type: 'jsonb' })
  ancestors: string[];

  /** Section titles, one per line. */
  @Column({ type: 'text' })
  headings: string;

  /** Plain text of the body. */
  @Column({ type: 'text' })
  body: string;

  @Column({ name: 'title_grams', type: 'text' })
  titleGrams: string;

  @Column({ type: 'text' })
  grams: string;

  @Column({ type: 'varchar', length: 32 })
  config: string;

  @Column({ type: 'tsvector' })
  tsv: string;
}
