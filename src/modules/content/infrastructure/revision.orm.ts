import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { idColumn, primaryIdColumn, timestampColumn } from '../../../database/columns';
import { RevisionContent } from '../domain/revision-content';

/**
 * One immutable revision. The page tree is stored as shared nodes (page_nodes; the revision names
 * its top-level chunks), files, variables and reusable contents as one JSON value; page bodies
 * are referenced by hash (documents table), so a new revision copies references, not text.
 */
@Entity('revisions')
@Index('revisions_space_created_idx', ['spaceId', 'createdAt', 'id'])
export class RevisionOrm {
  @PrimaryColumn(primaryIdColumn())
  id: string;

  @Column(idColumn({ name: 'space_id' }))
  @ForeignKey('spaces', { onDelete: 'CASCADE' })
  spaceId: string;

  @Column({ type: 'varchar', length: 32, array: true, default: () => "'{}'" })
  parents: string[];

  @Column({ type: 'varchar', length: 16 })
  type: string;

  /**
   * Files, variables and reusable contents (no pages). GIN-indexed on `content->'files'`
   * (jsonb_path_ops), so "is this stored file still referenced?" is an index probe.
   */
  @Index('revisions_files_idx', { synchronize: false })
  @Column({ type: 'jsonb' })
  content: Omit<RevisionContent, 'pages'>;

  /** The top-level chunks of the page tree (page_nodes addresses). */
  @Column({ name: 'page_chunks', type: 'varchar', length: 32, array: true, default: () => "'{}'" })
  pageChunks: string[];

  @Column(idColumn({ name: 'created_by', nullable: true }))
  createdBy: string | null;

  @Column(timestampColumn({ name: 'created_at' }))
  createdAt: Date;
}
