import { Check, Column, Entity, ForeignKey, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { idColumn, primaryIdColumn, timestampColumn } from '../../../database/columns';
import { SiteOrm } from './site.orm';

/**
 * A role given to one user or one team on one site (GitBook's site permission overrides). Exactly
 * one principal per row; foreign keys remove grants with the site, the user or the team.
 */
@Entity('site_grants')
@Check('site_grants_one_principal', 'num_nonnulls(user_id, team_id) = 1')
@Index('site_grants_site_user_key', ['siteId', 'userId'], { unique: true, where: 'user_id IS NOT NULL' })
@Index('site_grants_site_team_key', ['siteId', 'teamId'], { unique: true, where: 'team_id IS NOT NULL' })
@Index('site_grants_user_idx', ['organizationId', 'userId'], { where: 'user_id IS NOT NULL' })
@Index('site_grants_team_idx', ['organizationId', 'teamId'], { where: 'team_id IS NOT NULL' })
@Index('site_grants_site_created_idx', ['siteId', 'createdAt', 'id'])
export class SiteGrantOrm {
  @PrimaryColumn(primaryIdColumn())
  id: string;

  @Column(idColumn({ name: 'organization_id' }))
  @ForeignKey('organizations', { onDelete: 'CASCADE' })
  organizationId: string;

  @Column(idColumn({ name: 'site_id' }))
  siteId: string;

  @ManyToOne(() => SiteOrm, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'site_id' })
  site?: SiteOrm;

  @Column(idColumn({ name: 'user_id', nullable: true }))
  @ForeignKey('users', { onDelete: 'CASCADE' })
  userId: string | null;

  @Column(idColumn({ name: 'team_id', nullable: true }))
  @ForeignKey('teams', { onDelete: 'CASCADE' })
  teamId: string | null;

  @Column({ type: 'varchar', length: 16 })
  role: string;

  @Column(timestampColumn({ name: 'created_at' }))
  createdAt: Date;
}
