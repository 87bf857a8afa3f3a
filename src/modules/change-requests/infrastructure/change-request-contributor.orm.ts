import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { primaryIdColumn, timestampColumn } from '../../../database/columns';
import { ChangeRequestOrm } from './change-request.orm';

/** Everyone who authored a revision of the change request (the `contributor` filter). */
@Entity('change_request_contributors')
@Index('change_request_contributors_user_idx', ['userId', 'changeRequestId'])
export class ChangeRequestContributorOrm {
  @PrimaryColumn(primaryIdColumn({ name: 'change_request_id' }))
  changeRequestId: string;

  @PrimaryColumn(primaryIdColumn({ name: 'user_id' }))
  userId: string;

  @ManyToOne(() => ChangeRequestOrm, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'change_request_id' })
  changeRequest?: ChangeRequestOrm;

  @Column(timestampColumn({ name: 'first_contributed_at' }))
  firstContributedAt: Date;
}
