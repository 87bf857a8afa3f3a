import { Column, Entity, ForeignKey, Index, PrimaryColumn, Unique } from 'typeorm';
import { idColumn, primaryIdColumn, timestampColumn } from '../../../database/columns';

/** A support conversation ingested by an organization; `(source, external_id)` makes ingestion idempotent. */
@Entity('conversations')
@Unique('conversations_org_source_external_key', ['organizationId', 'source', 'externalId'])
@Index('conversations_org_created_idx', ['organizationId', 'createdAt', 'id'])
@Index('conversations_org_source_created_idx', ['organizationId', 'source', 'createdAt', 'id'])
@Index('conversations_unprocessed_idx', ['organizationId', 'ingestedAt'], { where: 'processed_at IS NULL' })
export class ConversationOrm {
  @PrimaryColumn(primaryIdColumn())
  id: string;

  @Column(idColumn({ name: 'organization_id' }))
  @ForeignKey('organizations', { onDelete: 'CASCADE' })
  organizationId: string;

  @Column({ type: 'varchar', length: 300 })
  source: string;

  @Column({ name: 'external_id', type: 'varchar', length: 255 })
  externalId: string;

  @Column({ type: 'varchar', length: 512, nullable: true })
  subject: string | null;

  @Column({ type: 'jsonb', nullable: true })
  metadata: Record<string, unknown> | null;

  @Column({ type: 'jsonb' })
  parts: Array<{ type: string; role: string; body: string }>;

  @Column(timestampColumn({ name: 'created_at' }))
  createdAt: Date;

  @Column(timestampColumn({ name: 'ingested_at' }))
  ingestedAt: Date;

  /** Null until the analysis has extracted its issues (again, after an update). */
  @Column(timestampColumn({ name: 'processed_at', nullable: true }))
  processedAt: Date | null;
}
