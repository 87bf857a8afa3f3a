import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, Unique } from 'typeorm';
import { idColumn, primaryIdColumn, timestampColumn } from '../../../database/columns';
import { OpenAPISpecOrm } from './openapi-spec.orm';

/**
 * One processed state of a spec, content-addressed: a version exists only for a document that
 * differs from every earlier one of the spec (`content_hash` of the bundled document).
 */
@Entity('openapi_spec_versions')
@Unique('openapi_spec_versions_spec_hash_key', ['specId', 'contentHash'])
@Index('openapi_spec_versions_spec_created_idx', ['specId', 'createdAt', 'id'])
export class OpenAPISpecVersionOrm {
  @PrimaryColumn(primaryIdColumn())
  id: string;

  @Column(idColumn({ name: 'spec_id' }))
  specId: string;

  @ManyToOne(() => OpenAPISpecOrm, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'spec_id' })
  spec?: OpenAPISpecOrm;

  @Column({ name: 'content_hash', type: 'varchar', length: 64 })
  contentHash: string;

  /**
   * The bundled document: every file of the source in one, internal `$ref`s kept. `json`, not
   * `jsonb`: jsonb reorders object keys (shortest first), and examples must show keys as written.
   */
  @Column({ type: 'json' })
  document: Record<string, unknown>;

  /** The entrypoint's text exactly as fetched or given. */
  @Column({ name: 'raw_text', type: 'text' })
  rawText: string;

  /** json | yaml */
  @Column({ name: 'raw_format', type: 'varchar', length: 8 })
  rawFormat: string;

  @Column(timestampColumn({ name: 'created_at' }))
  createdAt: Date;
}
