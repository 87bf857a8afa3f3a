import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { idColumn, primaryIdColumn, timestampColumn } from '../../../database/columns';

/**
 * A published docs site of an organization. `basename` and `hostname` are global: readers reach
 * the site at `/sites/{basename}` and at its own host. The visitor signing key is sealed
 * (SecretBox); `tokenSecret` signs the short-lived site tokens `POST /urls/published` hands out.
 */
@Entity('sites')
@Index('sites_org_created_idx', ['organizationId', 'createdAt', 'id'])
@Index('sites_basename_key', ['basename'], { unique: true, where: 'basename IS NOT NULL' })
// Several sites may claim one host name while they prove it; only one serves it (see docs/sites.md).
@Index('sites_hostname_key', ['hostname'], { unique: true, where: "hostname IS NOT NULL AND hostname_status = 'live'" })
@Index('sites_hostname_claims_idx', ['hostname'], { where: 'hostname IS NOT NULL' })
export class SiteOrm {
  @PrimaryColumn(primaryIdColumn())
  id: string;

  @Column(idColumn({ name: 'organization_id' }))
  @ForeignKey('organizations', { onDelete: 'CASCADE' })
  organizationId: string;

  @Column({ type: 'varchar', length: 32 })
  type: string;

  @Column({ type: 'varchar', length: 128 })
  title: string;

  @Column({ type: 'varchar', length: 16 })
  visibility: string;

  @Column({ type: 'boolean', default: false })
  published: boolean;

  @Column({ type: 'varchar', length: 100, nullable: true })
  basename: string | null;

  /** The site's own host name, as claimed; readers reach it there only once `hostnameStatus` is `live`. */
  @Column({ type: 'varchar', length: 253, nullable: true })
  hostname: string | null;

  /** `live` (proved, served), `pending` (not checked yet) or the failed check's DNS status; null without a host name. */
  @Column({ name: 'hostname_status', type: 'varchar', length: 32, nullable: true })
  hostnameStatus: string | null;

  /** What the claim's DNS TXT record must hold (not a secret: publishing it is what proves control of the name). */
  @Column({ name: 'hostname_token', type: 'varchar', length: 64, nullable: true })
  hostnameToken: string | null;

  @Column(timestampColumn({ name: 'hostname_checked_at', nullable: true }))
  hostnameCheckedAt: Date | null;

  @Column({ type: 'varchar', length: 300, nullable: true })
  proxy: string | null;

  @Column({ name: 'adaptive_content', type: 'boolean', default: false })
  adaptiveContent: boolean;

  @Column({ name: 'agents_context', type: 'varchar', length: 16, default: 'included' })
  agentsContext: string;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  customization: Record<string, unknown>;

  @Column({ name: 'adaptive_schema', type: 'jsonb', nullable: true })
  adaptiveSchema: Record<string, unknown> | null;

  @Column(timestampColumn({ name: 'adaptive_schema_updated_at', nullable: true }))
  adaptiveSchemaUpdatedAt: Date | null;

  @Column({ name: 'visitor_auth_backend', type: 'varchar', length: 16, default: 'custom' })
  visitorAuthBackend: string;

  @Column({ name: 'visitor_auth_fallback_url', type: 'varchar', length: 2048, nullable: true })
  visitorAuthFallbackUrl: string | null;

  /** SecretBox-sealed HS256 key visitors' JWTs are signed with; null until first generated. */
  @Column({ name: 'visitor_auth_key', type: 'text', nullable: true })
  visitorAuthKey: string | null;

  @Column({ name: 'token_secret', type: 'varchar', length: 64 })
  tokenSecret: string;

  /** Bumped by every change readers would see: part of the published pages' ETag. */
  @Column({ type: 'integer', default: 1 })
  version: number;

  /** The space holding the site's writing rules (GitBook's `styleguide`); null until one is made. */
  @Column(idColumn({ name: 'styleguide_space_id', nullable: true }))
  styleguideSpaceId: string | null;

  @Column(idColumn({ name: 'created_by' }))
  createdBy: string;

  @Column(timestampColumn({ name: 'created_at' }))
  createdAt: Date;

  @Column(timestampColumn({ name: 'updated_at' }))
  updatedAt: Date;
}
