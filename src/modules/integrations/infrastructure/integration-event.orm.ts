import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { idColumn, primaryIdColumn, timestampColumn } from '../../../database/columns';

export interface IntegrationEventLogEntry {
  message: string;
  timestamp: string;
  level: 'debug' | 'info' | 'warn' | 'error';
}

/** An event sent (or to send) to an integration's service, with the log of its tries. */
@Entity('integration_events')
@Index('integration_events_list_idx', ['integrationId', 'createdAt', 'id'])
@Index('integration_events_due_idx', ['nextAttemptAt'], { where: 'next_attempt_at IS NOT NULL' })
export class IntegrationEventOrm {
  @PrimaryColumn(primaryIdColumn())
  id: string;

  @Column(idColumn({ name: 'integration_id' }))
  @ForeignKey('integrations', { onDelete: 'CASCADE' })
  integrationId: string;

  @Column(idColumn({ name: 'installation_id', nullable: true }))
  installationId: string | null;

  @Column(idColumn({ name: 'organization_id' }))
  organizationId: string;

  @Column({ type: 'varchar', length: 64 })
  type: string;

  /** The source of the event and the target, so one outbox event makes one integration event per installation. */
  @Column({ name: 'dedupe_key', type: 'varchar', length: 128, nullable: true, unique: true })
  dedupeKey: string | null;

  @Column({ type: 'jsonb' })
  payload: Record<string, unknown>;

  /** pending until delivered (success) or given up (failed). */
  @Column({ type: 'varchar', length: 16 })
  status: string;

  @Column({ type: 'integer', default: 0 })
  attempts: number;

  @Column({ type: 'jsonb' })
  logs: IntegrationEventLogEntry[];

  /** When a lost job's delivery is swept back into the queue; null once settled. */
  @Column(timestampColumn({ name: 'next_attempt_at', nullable: true }))
  nextAttemptAt: Date | null;

  @Column(timestampColumn({ name: 'created_at' }))
  createdAt: Date;

  @Column(timestampColumn({ name: 'updated_at' }))
  updatedAt: Date;
}
