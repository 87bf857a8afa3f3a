import { Column, Entity, ForeignKey, Index, PrimaryColumn, Unique } from 'typeorm';
import { idColumn, primaryIdColumn, timestampColumn } from '../../../database/columns';

/** A scan of a site's evidence into topics and findings (a worker job). */
@Entity('site_scans')
@Index('site_scans_site_idx', ['siteId', 'createdAt', 'id'])
export class SiteScanOrm {
  @PrimaryColumn(primaryIdColumn())
  id: string;

  @Column(idColumn({ name: 'organization_id' }))
  organizationId: string;

  @Column(idColumn({ name: 'site_id' }))
  @ForeignKey('sites', { onDelete: 'CASCADE' })
  siteId: string;

  @Column({ type: 'varchar', length: 16 })
  status: string;

  @Column(idColumn({ name: 'topic_id', nullable: true }))
  topicId: string | null;

  @Column({ type: 'jsonb' })
  findings: { low: number; medium: number; high: number };

  @Column({ name: 'failure_message', type: 'varchar', length: 512, nullable: true })
  failureMessage: string | null;

  @Column(timestampColumn({ name: 'created_at' }))
  createdAt: Date;

  @Column(timestampColumn({ name: 'started_at', nullable: true }))
  startedAt: Date | null;

  @Column(timestampColumn({ name: 'finished_at', nullable: true }))
  finishedAt: Date | null;
}

/** A subject of a site's evidence. */
@Entity('site_topics')
@Unique('site_topics_key_unique', ['siteId', 'key'])
export class SiteTopicOrm {
  @PrimaryColumn(primaryIdColumn())
  id: string;

  @Column(idColumn({ name: 'organization_id' }))
  organizationId: string;

  @Column(idColumn({ name: 'site_id' }))
  @ForeignKey('sites', { onDelete: 'CASCADE' })
  siteId: string;

  @Column({ type: 'varchar', length: 128 })
  key: string;

  @Column({ type: 'varchar', length: 128 })
  label: string;

  @Column({ type: 'text' })
  summary: string;

  @Column({ name: 'use_for_change_requests', type: 'boolean', default: true })
  useForChangeRequests: boolean;

  @Column({ type: 'integer', default: 0 })
  pages: number;

  @Column({ type: 'integer', default: 0 })
  records: number;

  @Column(timestampColumn({ name: 'created_at' }))
  createdAt: Date;

  @Column(timestampColumn({ name: 'updated_at' }))
  updatedAt: Date;
}

/** What a scan found the documentation is missing or gets wrong, with its evidence and the pages involved. */
@Entity('site_findings')
@Index('site_findings_site_idx', ['siteId', 'updatedAt', 'id'])
@Index('site_findings_key_idx', ['siteId', 'key'])
export class SiteFindingOrm {
  @PrimaryColumn(primaryIdColumn())
  id: string;

  @Column(idColumn({ name: 'organization_id' }))
  organizationId: string;

  @Column(idColumn({ name: 'site_id' }))
  @ForeignKey('sites', { onDelete: 'CASCADE' })
  siteId: string;

  @Column(idColumn({ name: 'scan_id' }))
  scanId: string;

  @Column(idColumn({ name: 'topic_id', nullable: true }))
  topicId: string | null;

  @Column({ type: 'varchar', length: 160 })
  key: string;

  @Column({ type: 'varchar', length: 256 })
  title: string;

  @Column({ type: 'varchar', length: 16 })
  status: string;

  @Column({ type: 'varchar', length: 32 })
  type: string;

  @Column({ type: 'varchar', length: 8 })
  severity: string;

  @Column({ name: 'severity_rank', type: 'smallint' })
  severityRank: number;

  @Column({ type: 'text' })
  summary: string;

  @Column({ type: 'jsonb', default: () => "'[]'" })
  samples: string[];

  @Column({ name: 'question_ids', type: 'jsonb', default: () => "'[]'" })
  questionIds: string[];

  @Column({ name: 'record_ids', type: 'jsonb', default: () => "'[]'" })
  recordIds: string[];

  /** The connectors its evidence came from (`questions` for readers' questions). */
  @Column({ type: 'jsonb', default: () => "'[]'" })
  sources: string[];

  @Column({ name: 'source_count', type: 'integer', default: 0 })
  sourceCount: number;

  @Column({ type: 'jsonb', default: () => "'[]'" })
  pages: Array<{ spaceId: string; pageId: string }>;

  /** Change requests drafted for it. */
  @Column({ name: 'change_requests', type: 'jsonb', default: () => "'[]'" })
  changeRequests: Array<{ spaceId: string; changeRequestId: string; draftId?: string }>;

  @Column(timestampColumn({ name: 'created_at' }))
  createdAt: Date;

  @Column(timestampColumn({ name: 'updated_at' }))
  updatedAt: Date;
}
