import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { idColumn, primaryIdColumn, timestampColumn } from '../../../database/columns';
import type { IntegrationManifest } from '../domain/integration-manifest';

/** A published integration: its manifest, the address of its service, and the key we sign calls with (sealed). */
@Entity('integrations')
@Index('integrations_name_key', ['name'], { unique: true })
@Index('integrations_owner_idx', ['ownerOrganizationId', 'name'])
@Index('integrations_visibility_idx', ['visibility', 'name'])
export class IntegrationOrm {
  @PrimaryColumn(primaryIdColumn())
  id: string;

  @Column({ type: 'varchar', length: 64 })
  name: string;

  @Column(idColumn({ name: 'owner_organization_id' }))
  @ForeignKey('organizations', { onDelete: 'CASCADE' })
  ownerOrganizationId: string;

  /** The user that stands for the integration in what its tokens write (comments, change requests). */
  @Column(idColumn({ name: 'bot_user_id' }))
  @ForeignKey('users')
  botUserId: string;

  @Column({ type: 'varchar', length: 16 })
  visibility: string;

  @Column({ type: 'jsonb' })
  manifest: IntegrationManifest;

  @Column({ type: 'varchar', length: 2048 })
  endpoint: string;

  /** The signing secret and the integration's secrets, as JSON sealed with SECRETS_KEY. */
  @Column({ name: 'sealed_secrets', type: 'text' })
  sealedSecrets: string;

  @Column({ name: 'dev_tunnel_url', type: 'varchar', length: 2048, nullable: true })
  devTunnelUrl: string | null;

  /** Development mode for every organization's calls, not only the owner's. */
  @Column({ name: 'dev_all', type: 'boolean', default: false })
  devAll: boolean;

  @Column({ type: 'integer' })
  version: number;

  @Column(timestampColumn({ name: 'created_at' }))
  createdAt: Date;

  @Column(timestampColumn({ name: 'updated_at' }))
  updatedAt: Date;
}
