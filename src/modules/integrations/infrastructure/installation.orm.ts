import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { idColumn, primaryIdColumn, timestampColumn } from '../../../database/columns';

/** An integration installed on an organization (one per pair). */
@Entity('integration_installations')
@Index('integration_installations_pair_key', ['integrationId', 'organizationId'], { unique: true })
@Index('integration_installations_org_idx', ['organizationId', 'createdAt', 'id'])
@Index('integration_installations_list_idx', ['integrationId', 'createdAt', 'id'])
export class InstallationOrm {
  @PrimaryColumn(primaryIdColumn())
  id: string;

  @Column(idColumn({ name: 'integration_id' }))
  @ForeignKey('integrations', { onDelete: 'CASCADE' })
  integrationId: string;

  @Column(idColumn({ name: 'organization_id' }))
  @ForeignKey('organizations', { onDelete: 'CASCADE' })
  organizationId: string;

  @Column({ type: 'varchar', length: 16 })
  status: string;

  @Column({ name: 'space_selection', type: 'varchar', length: 16 })
  spaceSelection: string;

  @Column({ name: 'site_selection', type: 'varchar', length: 16 })
  siteSelection: string;

  @Column({ type: 'jsonb' })
  configuration: Record<string, unknown>;

  @Column({ name: 'external_ids', type: 'text', array: true })
  externalIds: string[];

  @Column(timestampColumn({ name: 'created_at' }))
  createdAt: Date;

  @Column(timestampColumn({ name: 'updated_at' }))
  updatedAt: Date;
}

/** What an installation's grant on one space or site holds besides the target (its configuration there). */
abstract class TargetInstallationColumns {
  @PrimaryColumn(primaryIdColumn({ name: 'installation_id' }))
  @ForeignKey('integration_installations', { onDelete: 'CASCADE' })
  installationId: string;

  @Column({ type: 'varchar', length: 16 })
  status: string;

  @Column({ type: 'jsonb' })
  configuration: Record<string, unknown>;

  @Column({ name: 'external_ids', type: 'text', array: true })
  externalIds: string[];

  @Column(timestampColumn({ name: 'created_at' }))
  createdAt: Date;

  @Column(timestampColumn({ name: 'updated_at' }))
  updatedAt: Date;
}

/** An installation's grant on one space. */
@Entity('integration_space_installations')
@Index('integration_space_installations_space_idx', ['spaceId'])
export class SpaceInstallationOrm extends TargetInstallationColumns {
  @PrimaryColumn(primaryIdColumn({ name: 'space_id' }))
  @ForeignKey('spaces', { onDelete: 'CASCADE' })
  spaceId: string;
}

/** An installation's grant on one site. */
@Entity('integration_site_installations')
@Index('integration_site_installations_site_idx', ['siteId'])
export class SiteInstallationOrm extends TargetInstallationColumns {
  @PrimaryColumn(primaryIdColumn({ name: 'site_id' }))
  @ForeignKey('sites', { onDelete: 'CASCADE' })
  siteId: string;
}

/** A short-lived installation token: only its hash is kept. */
@Entity('integration_installation_tokens')
@Index('integration_installation_tokens_hash_key', ['tokenHash'], { unique: true })
@Index('integration_installation_tokens_installation_idx', ['installationId', 'expiresAt'])
export class InstallationTokenOrm {
  @PrimaryColumn(primaryIdColumn())
  id: string;

  @Column(idColumn({ name: 'installation_id' }))
  @ForeignKey('integration_installations', { onDelete: 'CASCADE' })
  installationId: string;

  @Column({ name: 'token_hash', type: 'varchar', length: 64 })
  tokenHash: string;

  @Column(timestampColumn({ name: 'expires_at' }))
  expiresAt: Date;

  @Column(timestampColumn({ name: 'created_at' }))
  createdAt: Date;
}
