import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { idColumn, primaryIdColumn, timestampColumn } from '../../../database/columns';
import type { ImportSource, ImportStatus, ImportTarget, ImportedPage, SkippedPage } from '../domain/import-run';

/**
 * One content import run. The list reads an organization's runs newest first, optionally of one
 * space, change request, site or status: each filter has its index with the keyset columns.
 */
@Entity('content_import_runs')
@Index('content_import_runs_org_created_idx', ['organizationId', 'createdAt', 'id'])
@Index('content_import_runs_space_created_idx', ['organizationId', 'spaceId', 'createdAt', 'id'])
@Index('content_import_runs_cr_created_idx', ['organizationId', 'changeRequestId', 'createdAt', 'id'])
@Index('content_import_runs_site_created_idx', ['organizationId', 'siteId', 'createdAt', 'id'])
@Index('content_import_runs_status_created_idx', ['organizationId', 'status', 'createdAt', 'id'])
export class ImportRunOrm {
  @PrimaryColumn(primaryIdColumn())
  id: string;

  @Column(idColumn({ name: 'organization_id' }))
  organizationId: string;

  @Column({ type: 'varchar', length: 16 })
  status: ImportStatus;

  @Column({ type: 'jsonb' })
  source: ImportSource;

  @Column({ type: 'jsonb' })
  target: ImportTarget;

  /** Copied out of `target` for the list's filters. */
  @Column(idColumn({ name: 'space_id' }))
  spaceId: string;

  @Column(idColumn({ name: 'change_request_id', nullable: true }))
  changeRequestId: string | null;

  @Column(idColumn({ name: 'site_id', nullable: true }))
  siteId: string | null;

  @Column(idColumn({ name: 'created_by' }))
  createdBy: string;

  @Column(timestampColumn({ name: 'created_at' }))
  createdAt: Date;

  @Column(timestampColumn({ name: 'updated_at' }))
  updatedAt: Date;

  @Column(timestampColumn({ name: 'started_at', nullable: true }))
  startedAt: Date | null;

  @Column(timestampColumn({ name: 'completed_at', nullable: true }))
  completedAt: Date | null;

  @Column({ type: 'varchar', length: 500, nullable: true })
  reason: string | null;

  @Column({ type: 'jsonb', default: () => "'[]'" })
  pages: ImportedPage[];

  /** Pages read but not written (too complex to parse), with the reason. */
  @Column({ name: 'skipped_pages', type: 'jsonb', default: () => "'[]'" })
  skippedPages: SkippedPage[];
}
