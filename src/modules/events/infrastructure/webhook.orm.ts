import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { idColumn, primaryIdColumn, timestampColumn } from '../../../database/columns';

@Entity('webhooks')
@Index('webhooks_org_created_idx', ['organizationId', 'createdAt', 'id'])
export class WebhookOrm {
  @PrimaryColumn(primaryIdColumn())
  id: string;

  @Column(idColumn({ name: 'organization_id' }))
  @ForeignKey('organizations', { onDelete: 'CASCADE' })
  organizationId: string;

  @Column({ type: 'varchar', length: 2048 })
  url: string;

  @Column({ type: 'jsonb' })
  events: string[];

  @Column({ name: 'space_ids', type: 'jsonb', nullable: true })
  spaceIds: string[] | null;

  /** The signing secret, sealed with SECRETS_KEY (AES-256-GCM). */
  @Column({ name: 'secret_sealed', type: 'text' })
  secretSealed: string;

  @Column({ type: 'boolean', default: true })
  active: boolean;

  @Column({ name: 'disabled_reason', type: 'varchar', length: 500, nullable: true })
  disabledReason: string | null;

  @Column(timestampColumn({ name: 'disabled_at', nullable: true }))
  disabledAt: Date | null;

  @Column(timestampColumn({ name: 'failing_since', nullable: true }))
  failingSince: Date | null;

  @Column(idColumn({ name: 'created_by' }))
  createdBy: string;

  @Column(timestampColumn({ name: 'created_at' }))
  createdAt: Date;

  @Column(timestampColumn({ name: 'updated_at' }))
  updatedAt: Date;

  @Column({ type: 'integer', default: 1 })
  version: number;
}
