import { Column, Entity, ForeignKey, Index, PrimaryColumn, VersionColumn } from 'typeorm';
import { idColumn, primaryIdColumn, timestampColumn } from '../../../database/columns';

@Entity('spaces')
@Index('spaces_org_created_idx', ['organizationId', 'createdAt', 'id'], { where: 'deleted_at IS NULL' })
@Index('spaces_parent_position_idx', ['parentId', 'position', 'id'], { where: 'deleted_at IS NULL' })
@Index('spaces_deleted_idx', ['deletedAt'], { where: 'deleted_at IS NOT NULL' })
export class SpaceOrm {
  @PrimaryColumn(primaryIdColumn())
  id: string;

  @Column(idColumn({ name: 'organization_id' }))
  @ForeignKey('organizations', { onDelete: 'CASCADE' })
  organizationId: string;

  @Column(idColumn({ name: 'parent_id', nullable: true }))
  @ForeignKey('collections', { onDelete: 'SET NULL' })
  parentId: string | null;

  @Column({ type: 'varchar', length: 50 })
  title: string;

  @Column({ type: 'varchar', length: 50, default: '' })
  emoji: string;

  @Column({ type: 'varchar', length: 16, default: 'private' })
  visibility: string;

  @Column({ name: 'edit_mode', type: 'varchar', length: 8, default: 'live' })
  editMode: string;

  @Column({ name: 'merge_rules', type: 'jsonb', default: () => `'{"type": "inherit"}'` })
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  mergeRules: Record<string, any>;

  @Column({ type: 'varchar', length: 8, nullable: true })
  language: string | null;

  /** A role, `inherit`, or null (no default access for members). */
  @Column({ name: 'default_level', type: 'varchar', length: 16, nullable: true, default: 'inherit' })
  defaultLevel: string | null;

  @Column(idColumn({ name: 'revision_id' }))
  revisionId: string;

  @Column({ type: 'double precision', default: 0 })
  position: number;

  @Column({ type: 'integer', default: 0 })
  comments: number;

  @Column({ name: 'change_requests', type: 'integer', default: 0 })
  changeRequests: number;

  @Column({ name: 'change_requests_open', type: 'integer', default: 0 })
  changeRequestsOpen: number;

  @Column({ name: 'change_requests_draft', type: 'integer', default: 0 })
  changeRequestsDraft: number;

  @Column(idColumn({ name: 'created_by', nullable: true }))
  createdBy: string | null;

  @Column(timestampColumn({ name: 'created_at' }))
  createdAt: Date;

  @Column(timestampColumn({ name: 'updated_at' }))
  updatedAt: Date;

  @Column(timestampColumn({ name: 'deleted_at', nullable: true }))
  deletedAt: Date | null;

  /** Optimistic concurrency: every write compares and bumps it, so racing writers get a 409. */
  /** Written by Git Sync through SpacesService.recordGitSync; shown as the space's `gitSync`. */
  @Column({ name: 'git_sync', type: 'jsonb', nullable: true })
  gitSync: Record<string, any> | null;

  @VersionColumn({ default: 1 })
  version: number;
}
