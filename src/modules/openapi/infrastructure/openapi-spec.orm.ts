import { Column, Entity, ForeignKey, Index, PrimaryColumn, Unique } from 'typeorm';
import { idColumn, primaryIdColumn, timestampColumn } from '../../../database/columns';

/**
 * An organization's OpenAPI specification: where it comes from (a URL or text given inline),
 * and the outcome of its last processing. `generation` counts processing requests; a run writes
 * its outcome only while it is still the latest (compare-and-set on it).
 */
@Entity('openapi_specs')
@Unique('openapi_specs_org_slug_key', ['organizationId', 'slug'])
@Index('openapi_specs_org_created_idx', ['organizationId', 'createdAt', 'id'])
@Index('openapi_specs_url_sources_idx', ['id'], { where: 'source_url IS NOT NULL' })
export class OpenAPISpecOrm {
  @PrimaryColumn(primaryIdColumn())
  id: string;

  @Column(idColumn({ name: 'organization_id' }))
  @ForeignKey('organizations', { onDelete: 'CASCADE' })
  organizationId: string;

  @Column({ type: 'varchar', length: 100 })
  slug: string;

  @Column({ name: 'source_url', type: 'varchar', length: 2048, nullable: true })
  sourceUrl: string | null;

  @Column({ name: 'source_text', type: 'text', nullable: true })
  sourceText: string | null;

  /** pending | progress | complete */
  @Column({ name: 'processing_state', type: 'varchar', length: 16 })
  processingState: string;

  /** private | public */
  @Column({ type: 'varchar', length: 16, default: 'private' })
  visibility: string;

  @Column(idColumn({ name: 'last_version_id', nullable: true }))
  lastVersionId: string | null;

  @Column(timestampColumn({ name: 'last_processed_at', nullable: true }))
  lastProcessedAt: Date | null;

  @Column({ name: 'last_process_error_code', type: 'varchar', length: 32, nullable: true })
  lastProcessErrorCode: string | null;

  @Column({ name: 'last_processed_errors', type: 'jsonb', default: () => "'[]'" })
  lastProcessedErrors: Array<{ message: string; code?: string }>;

  @Column({ name: 'last_processed_error_count', type: 'integer', default: 0 })
  lastProcessedErrorCount: number;

  @Column({ type: 'integer', default: 1 })
  generation: number;

  @Column(idColumn({ name: 'created_by' }))
  createdBy: string;

  @Column(timestampColumn({ name: 'created_at' }))
  createdAt: Date;

  @Column(timestampColumn({ name: 'updated_at' }))
  updatedAt: Date;
}
