import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, Unique, VersionColumn } from 'typeorm';
import { idColumn, primaryIdColumn, timestampColumn } from '../../../database/columns';
import type { StyleguideMarker } from '../domain/change-request';

/**
 * A proposed edit of a space. `revisionInitial` is the space revision it started from,
 * `revision` its head, `revisionMergedAncestor` the space revision it was last updated from,
 * `revisionMerged` the space revision its merge produced.
 */
@Entity('change_requests')
@Unique('change_requests_space_number_key', ['spaceId', 'number'])
@Index('change_requests_space_status_idx', ['spaceId', 'status', 'createdAt', 'id'])
@Index('change_requests_org_status_idx', ['organizationId', 'status', 'createdAt', 'id'])
@Index('change_requests_creator_idx', ['createdBy'])
@Index('change_requests_merged_idx', ['spaceId', 'revisionMerged'], { where: 'revision_merged IS NOT NULL' })
@Index('change_requests_cluster_idx', ['conversationsIssuesCluster'], { where: 'conversations_issues_cluster IS NOT NULL' })
@Index('change_requests_styleguide_idx', ['spaceId', 'createdAt'], { where: 'styleguide IS NOT NULL' })
export class ChangeRequestOrm {
  @PrimaryColumn(primaryIdColumn())
  id: string;

  @Column(idColumn({ name: 'space_id' }))
  spaceId: string;

  @ManyToOne('SpaceOrm', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'space_id' })
  space?: ChangeRequestSpaceRow;

  /** Denormalized from the space, for the organization-wide list. */
  @Column(idColumn({ name: 'organization_id' }))
  organizationId: string;

  @Column({ type: 'integer' })
  number: number;

  /** draft | open | merged | archived */
  @Column({ type: 'varchar', length: 16 })
  status: string;

  @Column({ type: 'varchar', length: 100, default: '' })
  subject: string;

  @Column({ type: 'jsonb', nullable: true })
  description: Record<string, unknown> | null;

  @Column(idColumn({ name: 'created_by' }))
  createdBy: string;

  @Column(idColumn({ name: 'revision_initial' }))
  revisionInitial: string;

  @Column(idColumn({ name: 'revision' }))
  revision: string;

  @Column(idColumn({ name: 'revision_merged_ancestor' }))
  revisionMergedAncestor: string;

  @Column(idColumn({ name: 'revision_merged', nullable: true }))
  revisionMerged: string | null;

  /** Open comments on the change request. */
  @Column({ type: 'integer', default: 0 })
  comments: number;

  @Column(idColumn({ name: 'conversations_issues_cluster', nullable: true }))
  conversationsIssuesCluster: string | null;

  /** The style guide check run that opened it (StyleguideMarker); null for others. */
  @Column({ type: 'jsonb', nullable: true })
  styleguide: StyleguideMarker | null;

  @Column(timestampColumn({ name: 'created_at' }))
  createdAt: Date;

  @Column(timestampColumn({ name: 'updated_at' }))
  updatedAt: Date;

  @Column(timestampColumn({ name: 'merged_at', nullable: true }))
  mergedAt: Date | null;

  /** Pages in conflict after an update from the space, until edited: `[{page, reasons}]`. */
  @Column({ type: 'jsonb', default: () => "'[]'" })
  conflicts: Array<{ page: string; reasons: string[] }>;

  /** Compare-and-set on every write: concurrent merges, updates and edits get a 409. */
  @VersionColumn({ default: 1 })
  version: number;
}

/** The space a change request belongs to, as the organization-wide list joins it from the spaces module's table, by entity name. */
export interface ChangeRequestSpaceRow {
  id: string;
  revisionId: string;
  organizationId: string;
}
