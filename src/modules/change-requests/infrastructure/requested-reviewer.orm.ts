import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { idColumn, primaryIdColumn, timestampColumn } from '../../../database/columns';
import { ChangeRequestOrm } from './change-request.orm';

@Entity('change_request_requested_reviewers')
@Index('change_request_requested_reviewers_user_idx', ['userId', 'changeRequestId'])
export class RequestedReviewerOrm {
  @PrimaryColumn(primaryIdColumn({ name: 'change_request_id' }))
  changeRequestId: string;

  @PrimaryColumn(primaryIdColumn({ name: 'user_id' }))
  userId: string;

  @ManyToOne(() => ChangeRequestOrm, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'change_request_id' })
  changeRequest?: ChangeRequestOrm;

  @Column(idColumn({ name: 'requested_by' }))
  requestedBy: string;

  @Column(timestampColumn({ name: 'requested_at' }))
  requestedAt: Date;

  /** The change request head when the review was requested (GitBook's `revision`). */
  @Column(idColumn({ name: 'revision', nullable: true }))
  revision: string | null;
}
