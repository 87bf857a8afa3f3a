import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { primaryIdColumn, timestampColumn } from '../../../database/columns';
import { OrganizationOrm } from './organization.orm';

/**
 * The organization's key pair for signing visitor tokens (ES256), made on first use. Both halves
 * are kept as JWKs; the private one never leaves the server.
 */
@Entity('organization_signing_keys')
export class SigningKeyOrm {
  @PrimaryColumn(primaryIdColumn({ name: 'organization_id' }))
  organizationId: string;

  @ManyToOne(() => OrganizationOrm, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organization_id' })
  organization?: OrganizationOrm;

  /** Key id, carried in the `kid` header of every token it signs. */
  @Column({ type: 'varchar', length: 32 })
  kid: string;

  @Column({ type: 'varchar', length: 16 })
  algorithm: string;

  @Column({ name: 'public_jwk', type: 'jsonb' })
  publicJwk: Record<string, unknown>;

  @Column({ name: 'private_jwk', type: 'jsonb' })
  privateJwk: Record<string, unknown>;

  @Column(timestampColumn({ name: 'created_at' }))
  createdAt: Date;
}
