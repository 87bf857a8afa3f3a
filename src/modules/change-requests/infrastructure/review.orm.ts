import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { idColumn, primaryIdColumn, timestampColumn } from '../../../database/columns';
import { ChangeRequestOrm } from './change-request.orm';

/** A review of a change request at one of its revisions. */
@Entity('change_request_reviews')
@Index('change_request_reviews_cr_idx', ['changeRequestId', 'createdAt', 'id'])
export class ChangeRequestReviewOrm {
  @PrimaryColumn(primaryIdColumn())
  id: string;

  @Column(idColumn({ name: 'change_request_id' }))
  changeRequestId: string;

  @ManyToOne(() => ChangeRequestOrm, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'change_request_id' })
  changeRequest?: ChangeRequestOrm;

  @Column(idColumn({ name: 'reviewer_id' }))
  reviewerId: string;

  /** approved | changes-requested (GitBook's review status values). */
  @Column({ type: 'varchar', length: 24 })
  status: string;

  /** The change request revision the review looked at. */
  @Column(idColumn({ name: 'revision' }))
  revision: string;

  @Column(timestampColumn({ name: 'created_at' }))
  createdAt: Date;
}
