import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, Unique } from 'typeorm';
import { idColumn, primaryIdColumn, timestampColumn } from '../../../database/columns';
import { OrganizationOrm } from './organization.orm';

/** An invitation to an e-mail that has no user yet; honoured when that user is created. */
@Entity('organization_invites')
@Unique('organization_invites_org_email_key', ['organizationId', 'email'])
export class InviteOrm {
  @PrimaryColumn(primaryIdColumn())
  id: string;

  @Column(idColumn({ name: 'organization_id' }))
  organizationId: string;

  @ManyToOne(() => OrganizationOrm, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organization_id' })
  organization?: OrganizationOrm;

  @Index()
  @Column({ type: 'varchar', length: 320 })
  email: string;

  @Column({ type: 'varchar', length: 16, nullable: true })
  role: string | null;

  @Column({ type: 'boolean', default: false })
  sso: boolean;

  @Column(idColumn({ name: 'invited_by', nullable: true }))
  invitedBy: string | null;

  @Column(timestampColumn({ name: 'created_at' }))
  createdAt: Date;
}
