import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { idColumn, primaryIdColumn, timestampColumn } from '../../../database/columns';
import type { SyncedSources } from '../domain/format/synced-sources';

/** One requested import or export; the job carries its id. Credentials only sealed (SecretBox). */
@Entity('git_sync_operations')
@Index('git_sync_operations_space_idx', ['spaceId', 'createdAt'])
export class GitSyncOperationOrm {
  @PrimaryColumn(primaryIdColumn())
  id: string;

  @Column(idColumn({ name: 'space_id' }))
  spaceId: string;

  /** import | export */
  @Column({ type: 'varchar', length: 8 })
  direction: string;

  /** The remote without credentials. */
  @Column({ type: 'text' })
  url: string;

  @Column({ name: 'sealed_credentials', type: 'text', nullable: true })
  sealedCredentials: string | null;

  /** ref, commitMessage, repoCacheID, repoTreeURL, repoCommitURL, repoProjectDirectory, force, standalone, gitInfo. */
  @Column({ type: 'jsonb' })
  options: Record<string, unknown>;

  @Column(timestampColumn({ name: 'timestamp', nullable: true }))
  timestamp: Date | null;

  @Column(idColumn({ name: 'requested_by' }))
  requestedBy: string;

  /** queued | running | success | failure | skipped */
  @Column({ type: 'varchar', length: 12 })
  state: string;

  @Column({ type: 'text', nullable: true })
  error: string | null;

  @Column({ type: 'jsonb', nullable: true })
  result: Record<string, unknown> | null;

  @Column(timestampColumn({ name: 'created_at' }))
  createdAt: Date;

  @Column(timestampColumn({ name: 'completed_at', nullable: true }))
  completedAt: Date | null;
}

/** A space's Git Sync link and the state of its last sync (the base of the next three-way merge). */
@Entity('git_sync_states')
export class GitSyncStateOrm {
  @PrimaryColumn(primaryIdColumn({ name: 'space_id' }))
  spaceId: string;

  @Column({ type: 'text' })
  url: string;

  @Column({ type: 'text' })
  ref: string;

  @Column({ name: 'tree_url', type: 'text', nullable: true })
  treeUrl: string | null;

  @Column({ type: 'varchar', length: 24, nullable: true })
  provider: string | null;

  /** The commit and the revision that last held the same content (the merge base). */
  @Column({ name: 'last_commit', type: 'varchar', length: 64, nullable: true })
  lastCommit: string | null;

  @Column(idColumn({ name: 'last_revision', nullable: true }))
  lastRevision: string | null;

  /** Files the last sync read or wrote (relative to the project directory): an export removes those it no longer writes. */
  @Column({ name: 'last_paths', type: 'jsonb', default: () => "'[]'" })
  lastPaths: string[];

  /**
   * Asset path -> { digest (git's blob id of its bytes), file }: unchanged assets keep their stored
   * bytes. Entries written before digests were blob ids hold a `sha256` instead and are stored once more.
   */
  @Column({ type: 'jsonb', default: () => "'{}'" })
  assets: Record<string, { digest?: string; file: Record<string, unknown> }>;

  /** Where each page, include and file of the space came from, and what it was (see SyncedSources). */
  @Column({ type: 'jsonb', nullable: true })
  sources: SyncedSources | null;

  /** The `timestamp` of the last operation processed: older ones are skipped. */
  @Column(timestampColumn({ name: 'last_timestamp', nullable: true }))
  lastTimestamp: Date | null;

  @Column(idColumn({ name: 'last_operation', nullable: true }))
  lastOperation: string | null;

  @Column(idColumn({ name: 'change_request', nullable: true }))
  changeRequest: string | null;

  @Column(timestampColumn({ name: 'updated_at' }))
  updatedAt: Date;
}
