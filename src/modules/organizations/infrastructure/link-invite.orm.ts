import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { idColumn, primaryIdColumn, timestampColumn } from '../../../database/columns';
import { OrganizationOrm } from './organization.orm';

/** An invite link: its id is the secret whoever joins through it presents. */
@Entity('organization_link_invites')
@Index('organization_link_invites_org_created_idx', ['organizationId', 'createdAt', 'id'])
export class LinkInviteOrm {
  @PrimaryColumn(primaryIdColumn())
  id: string;

  @Column(idColumn({ name: 'organization_id' }))
  organizationId: string;

  @ManyToOne(() => OrganizationOrm, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organization_id' })
  organization?: OrganizationOrm;

  /** null: joins as a guest. */
  @Column({ type: 'varchar', length: 16, nullable: true })
  role: string | null;

  @Column(idColumn({ name: 'created_by', nullable: true }))
  createdBy: string | null;

  @Column(timestampColumn({ name: 'created_at' }))
  createdAt: Date;

  /** null: never expires. */
  @Column(timestampColumn({ name: 'expires_at', nullable: true }))
  expiresAt: Date | null;
}
