import { Column, Entity, ForeignKey, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { primaryIdColumn, timestampColumn } from '../../../database/columns';
import { TeamOrm } from './team.orm';

@Entity('team_members')
@Index('team_members_team_added_idx', ['teamId', 'addedAt', 'userId'])
@Index('team_members_user_idx', ['userId', 'teamId'])
export class TeamMemberOrm {
  @PrimaryColumn(primaryIdColumn({ name: 'team_id' }))
  teamId: string;

  @PrimaryColumn(primaryIdColumn({ name: 'user_id' }))
  @ForeignKey('users', { onDelete: 'CASCADE' })
  userId: string;

  @ManyToOne(() => TeamOrm, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'team_id' })
  team?: TeamOrm;

  /** `owner` manages the team's members; `member` does not. */
  @Column({ type: 'varchar', length: 16, default: 'member' })
  role: string;

  @Column(timestampColumn({ name: 'added_at' }))
  addedAt: Date;
}
