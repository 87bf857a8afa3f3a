import { Column, Entity, ForeignKey, Index, PrimaryColumn, Unique } from 'typeorm';
import { idColumn, primaryIdColumn, timestampColumn } from '../../../database/columns';
import type { UsageSettings } from '../domain/context-connection';

/** Where a site's records come from; its credentials are stored sealed. */
@Entity('context_connections')
@Index('context_connections_site_idx', ['siteId', 'createdAt', 'id'])
export class ContextConnectionOrm {
  @PrimaryColumn(primaryIdColumn())
  id: string;

  @Column(idColumn({ name: 'organization_id' }))
  organizationId: string;

  @Column(idColumn({ name: 'site_id' }))
  @ForeignKey('sites', { onDelete: 'CASCADE' })
  siteId: string;

  @Column({ type: 'varchar', length: 128 })
  connector: string;

  @Column({ type: 'varchar', length: 128, nullable: true })
  label: string | null;

  @Column({ type: 'varchar', length: 1024, nullable: true })
  filter: string | null;

  /** Setup settings that are not credentials. */
  @Column({ type: 'jsonb', default: () => "'{}'" })
  settings: Record<string, unknown>;

  /** The credentials as JSON, sealed with SECRETS_KEY (null when there are none). */
  @Column({ name: 'sealed_secrets', type: 'text', nullable: true })
  sealedSecrets: string | null;

  @Column({ name: 'usage_settings', type: 'jsonb' })
  usageSettings: UsageSettings;

  @Column({ type: 'varchar', length: 16 })
  status: string;

  @Column({ name: 'failure_message', type: 'varchar', length: 512, nullable: true })
  failureMessage: string | null;

  @Column({ name: 'failure_reason', type: 'varchar', length: 32, nullable: true })
  failureReason: string | null;

  /** How many records it holds. */
  @Column({ type: 'integer', default: 0 })
  records: number;

  /** Marks our own connection, holding what the site's readers did (questions aside). */
  @Column({ type: 'boolean', default: false })
  internal: boolean;

  @Column(timestampColumn({ name: 'synced_at', nullable: true }))
  syncedAt: Date | null;

  @Column(timestampColumn({ name: 'created_at' }))
  createdAt: Date;

  @Column(timestampColumn({ name: 'updated_at' }))
  updatedAt: Date;
}

/** One record of a site's context: a ticket or a document, from a connection. */
@Entity('context_records')
@Unique('context_records_external_unique', ['connectionId', 'externalId'])
@Index('context_records_site_idx', ['siteId', 'createdAt', 'id'])
export class ContextRecordOrm {
  @PrimaryColumn(primaryIdColumn())
  id: string;

  @Column(idColumn({ name: 'organization_id' }))
  organizationId: string;

  @Column(idColumn({ name: 'site_id' }))
  @ForeignKey('sites', { onDelete: 'CASCADE' })
  siteId: string;

  @Column(idColumn({ name: 'connection_id' }))
  @ForeignKey('context_connections', { onDelete: 'CASCADE' })
  connectionId: string;

  @Column({ type: 'varchar', length: 128 })
  connector: string;

  @Column({ name: 'external_id', type: 'varchar', length: 256 })
  externalId: string;

  @Column({ type: 'varchar', length: 16 })
  type: string;

  @Column({ type: 'varchar', length: 256 })
  title: string;

  @Column({ type: 'varchar', length: 512, nullable: true })
  description: string | null;

  @Column({ type: 'text' })
  body: string;

  @Column({ type: 'varchar', length: 2048, nullable: true })
  url: string | null;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  metadata: Record<string, string | number>;

  /** What the record says, for scans: `unanswered`, `no-results`, `unhelpful`, `reported`. */
  @Column({ type: 'varchar', length: 16 })
  signal: string;

  @Column({ type: 'integer', default: 1 })
  weight: number;

  /** Pages the record is about, when known. */
  @Column({ type: 'jsonb', default: () => "'[]'" })
  pages: Array<{ spaceId: string; pageId: string }>;

  @Column({ type: 'jsonb', default: () => "'[]'" })
  topics: string[];

  @Column(timestampColumn({ name: 'created_at' }))
  createdAt: Date;

  @Column(timestampColumn({ name: 'processed_at', nullable: true }))
  processedAt: Date | null;
}
