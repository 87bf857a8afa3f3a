import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { idColumn, primaryIdColumn, timestampColumn } from '../../../database/columns';

/**
 * A translation of a space into another language: the result space it writes, its status and
 * counters. `generation` counts run requests; a run writes its outcome only while it is still the
 * latest one.
 */
@Entity('translations')
@Index('translations_org_created_idx', ['organizationId', 'createdAt', 'id'])
export class TranslationOrm {
  @PrimaryColumn(primaryIdColumn())
  id: string;

  @Column(idColumn({ name: 'organization_id' }))
  @ForeignKey('organizations', { onDelete: 'CASCADE' })
  organizationId: string;

  @Column(idColumn({ name: 'source_space_id' }))
  sourceSpaceId: string;

  @Column({ name: 'source_language', type: 'varchar', length: 8 })
  sourceLanguage: string;

  @Column({ type: 'varchar', length: 8 })
  language: string;

  @Column({ type: 'jsonb' })
  instructions: Record<string, unknown>;

  @Column(idColumn({ name: 'result_space_id' }))
  resultSpaceId: string;

  @Column(idColumn({ name: 'result_revision_id' }))
  resultRevisionId: string;

  /** pending | running | completed */
  @Column({ type: 'varchar', length: 16 })
  status: string;

  @Column({ type: 'integer', default: 0 })
  runs: number;

  @Column({ name: 'total_words', type: 'integer', default: 0 })
  totalWords: number;

  /** Unique pages translated (the source pages that have a translation). */
  @Column({ name: 'total_pages', type: 'integer', default: 0 })
  totalPages: number;

  @Column({ name: 'total_duration_ms', type: 'integer', default: 0 })
  totalDurationMs: number;

  @Column({ name: 'latest_run_duration_ms', type: 'integer', default: 0 })
  latestRunDurationMs: number;

  @Column({ name: 'latest_pages', type: 'integer', default: 0 })
  latestPages: number;

  @Column({ name: 'latest_words', type: 'integer', default: 0 })
  latestWords: number;

  /** Why the last run failed (no secrets); null after a successful run. */
  @Column({ name: 'last_error', type: 'varchar', length: 500, nullable: true })
  lastError: string | null;

  /** Change request of the result space holding new translations of pages edited there by hand. */
  @Column(idColumn({ name: 'last_change_request_id', nullable: true }))
  lastChangeRequestId: string | null;

  @Column({ type: 'integer', default: 0 })
  generation: number;

  @Column({ name: 'completed_generation', type: 'integer', default: 0 })
  completedGeneration: number;

  /** Who asked for the latest run: the run reads and writes with their rights. */
  @Column(idColumn({ name: 'requested_by' }))
  requestedBy: string;

  @Column(timestampColumn({ name: 'run_started_at', nullable: true }))
  runStartedAt: Date | null;

  @Column(idColumn({ name: 'created_by' }))
  createdBy: string;

  @Column(timestampColumn({ name: 'created_at' }))
  createdAt: Date;

  @Column(timestampColumn({ name: 'updated_at' }))
  updatedAt: Date;
}
