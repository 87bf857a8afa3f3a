import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { idColumn, primaryIdColumn, timestampColumn } from '../../../database/columns';

@Entity('saml_providers')
@Index('saml_providers_org_created_idx', ['organizationId', 'createdAt', 'id'])
export class SamlProviderOrm {
  @PrimaryColumn(primaryIdColumn())
  id: string;

  @Column(idColumn({ name: 'organization_id' }))
  @ForeignKey('organizations', { onDelete: 'CASCADE' })
  organizationId: string;

  @Column({ type: 'varchar', length: 30 })
  label: string;

  /** The IdP's entity id; '' when not configured (the Issuer is then not checked). */
  @Column({ name: 'entity_id', type: 'varchar', length: 1024, default: '' })
  entityId: string;

  /** null while the provider is pending. */
  @Column({ name: 'sso_url', type: 'varchar', length: 2048, nullable: true })
  ssoUrl: string | null;

  /** The IdP's signing certificate as PEM; null while the provider is pending. */
  @Column({ type: 'text', nullable: true })
  certificate: string | null;

  /** Cleared when the team is deleted. Indexed for that foreign key's ON DELETE. */
  @Index('saml_providers_default_team_idx')
  @Column(idColumn({ name: 'default_team_id', nullable: true }))
  @ForeignKey('teams', { onDelete: 'SET NULL' })
  defaultTeamId: string | null;

  /** null: members who join by signing in are guests. */
  @Column({ name: 'default_role', type: 'varchar', length: 16, nullable: true })
  defaultRole: string | null;

  @Column({ type: 'varchar', length: 16, default: 'pending' })
  status: string;

  @Column(timestampColumn({ name: 'created_at' }))
  createdAt: Date;
}
