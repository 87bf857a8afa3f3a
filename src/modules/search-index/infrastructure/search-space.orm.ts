import { Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';
import { idColumn, primaryIdColumn, timestampColumn } from '../../../database/columns';

/** Which revision of a space the search index holds, and in which text search configuration. */
@Entity('search_spaces')
export class SearchSpaceOrm {
  @PrimaryColumn(primaryIdColumn({ name: 'space_id' }))
  @ForeignKey('spaces', { onDelete: 'CASCADE' })
  spaceId: string;

  /** '' until the first indexing completes. */
  @Column(idColumn({ name: 'revision_id' }))
  revisionId: string;

  @Column({ type: 'varchar', length: 8, nullable: true })
  language: string | null;

  @Column({ type: 'varchar', length: 32 })
  config: string;

  @Column(timestampColumn({ name: 'updated_at' }))
  updatedAt: Date;
}
