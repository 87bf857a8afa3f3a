import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { idColumn, primaryIdColumn, timestampColumn } from '../../../database/columns';

/**
 * A comment on a space's content (`change_request_id` null) or on a change request. Lists are
 * per (space, change request) scope, newest or oldest first, optionally filtered by status,
 * page or author: one index per filter, each ending in the keyset (posted_at, id).
 */
@Entity('comments')
@Index('comments_scope_posted_idx', ['spaceId', 'changeRequestId', 'postedAt', 'id'])
@Index('comments_scope_status_idx', ['spaceId', 'changeRequestId', 'status', 'postedAt', 'id'])
@Index('comments_scope_page_idx', ['spaceId', 'changeRequestId', 'pageId', 'postedAt', 'id'])
@Index('comments_scope_author_idx', ['spaceId', 'changeRequestId', 'postedBy', 'postedAt', 'id'])
@Index('comments_change_request_idx', ['changeRequestId'])
export class CommentOrm {
  @PrimaryColumn(primaryIdColumn())
  id: string;

  @Column(idColumn({ name: 'space_id' }))
  @ForeignKey('spaces', { onDelete: 'CASCADE' })
  spaceId: string;

  @Column(idColumn({ name: 'change_request_id', nullable: true }))
  @ForeignKey('change_requests', { onDelete: 'CASCADE' })
  changeRequestId: string | null;

  /** The revision the comment was posted on (`target.revision`). */
  @Column(idColumn({ name: 'revision_id' }))
  revisionId: string;

  @Column({ name: 'page_id', type: 'varchar', length: 64, nullable: true })
  pageId: string | null;

  @Column({ name: 'node_id', type: 'varchar', length: 128, nullable: true })
  nodeId: string | null;

  @Column({ name: 'table_record', type: 'varchar', length: 128, nullable: true })
  tableRecord: string | null;

  @Column({ name: 'table_definition', type: 'varchar', length: 128, nullable: true })
  tableDefinition: string | null;

  @Column(idColumn({ name: 'posted_by' }))
  postedBy: string;

  @Column(timestampColumn({ name: 'posted_at' }))
  postedAt: Date;

  @Column(timestampColumn({ name: 'edited_at', nullable: true }))
  editedAt: Date | null;

  /** Markdown. */
  @Column({ type: 'text' })
  body: string;

  /** open | resolved */
  @Column({ type: 'varchar', length: 16 })
  status: string;

  @Column(timestampColumn({ name: 'resolved_at', nullable: true }))
  resolvedAt: Date | null;

  @Column(idColumn({ name: 'resolved_by', nullable: true }))
  resolvedBy: string | null;
}
