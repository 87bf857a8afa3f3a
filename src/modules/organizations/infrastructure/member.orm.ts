import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { primaryIdColumn, timestampColumn } from '../../../database/columns';
import { OrganizationOrm } from './organization.orm';

@Entity('organization_members')
@Index('organization_members_joined_idx', ['organizationId', 'joinedAt', 'userId'])
@Index('organization_members_seen_idx', ['organizationId', 'lastSeenAt', 'userId'])
@Index('organization_members_role_idx', ['organizationId', 'role'])
@Index('organization_members_user_idx', ['userId', 'organizationId'])
export class MemberOrm {
  @PrimaryColumn(primaryIdColumn({ name: 'organization_id' }))
  organizationId: string;

  @PrimaryColumn(primaryIdColumn({ name: 'user_id' }))
  userId: string;

  @ManyToOne(() => OrganizationOrm, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organization_id' })
  organization?: OrganizationOrm;

  @ManyToOne('UserOrm', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: MemberUserRow;

  /** null: a guest, who sees only content shared with them. */
  @Column({ type: 'varchar', length: 16, nullable: true })
  role: string | null;

  @Column({ type: 'boolean', default: false })
  disabled: boolean;

  @Column({ type: 'boolean', default: false })
  sso: boolean;

  @Column(timestampColumn({ name: 'joined_at' }))
  joinedAt: Date;

  @Column(timestampColumn({ name: 'last_seen_at', nullable: true }))
  lastSeenAt: Date | null;
}

/** The user a member is, as the member list joins it (to sort and search by name) from the identity module's table, by entity name. */
export interface MemberUserRow {
  id: string;
  displayName: string;
  email: string;
}
