import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Page, PageRequest, paginate } from '@app/common';
import { Tx } from '../../../database/transactions';
import { Review, ReviewRequest, ReviewStatus } from '../domain/review';
import { RequestedReviewerOrm } from './requested-reviewer.orm';
import { ChangeRequestReviewOrm } from './review.orm';

const REVIEW_ORDER = { columns: ['r.created_at', 'r.id'], keys: ['createdAt', 'id'], direction: 'ASC' as const };
const REQUEST_ORDER = { columns: ['rr.requested_at', 'rr.user_id'], keys: ['requestedAt', 'userId'], direction: 'ASC' as const };

/** Reviews of change requests and the reviews requested from users. */
@Injectable()
export class ReviewsRepository {
  constructor(private readonly dataSource: DataSource) {}

  private manager(tx?: Tx) {
    return tx ?? this.dataSource.manager;
  }

  async insert(review: Review, tx?: Tx): Promise<void> {
    await this.manager(tx).getRepository(ChangeRequestReviewOrm).insert({ ...review });
  }

  async find(changeRequestId: string, reviewId: string): Promise<Review | null> {
    const row = await this.manager().getRepository(ChangeRequestReviewOrm).findOneBy({ changeRequestId, id: reviewId });
    return row ? toReview(row) : null;
  }

  /** Every review of the change request (merge rules). */
  async all(changeRequestId: string, tx?: Tx): Promise<Review[]> {
    const rows = await this.manager(tx).getRepository(ChangeRequestReviewOrm).findBy({ changeRequestId });
    return rows.map(toReview);
  }

  /** Oldest first; `outdated` keeps only reviews of an older head (true) or of `head` (false). */
  async list(changeRequestId: string, filter: { outdated?: boolean; head: string }, request: PageRequest): Promise<Page<Review>> {
    const qb = this.manager()
      .getRepository(ChangeRequestReviewOrm)
      .createQueryBuilder('r')
      .where('r.change_request_id = :changeRequestId', { changeRequestId });
    if (filter.outdated === true) qb.andWhere('r.revision <> :head', { head: filter.head });
    if (filter.outdated === false) qb.andWhere('r.revision = :head', { head: filter.head });
    const page = await paginate(qb, REVIEW_ORDER, request);
    return { ...page, items: page.items.map(toReview) };
  }

  /** Creates the requests, or renews them (who asked, when, at which head) when they exist. */
  async upsertRequests(requests: ReviewRequest[], tx?: Tx): Promise<void> {
    if (requests.length === 0) return;
    await this.manager(tx)
      .createQueryBuilder()
      .insert()
      .into(RequestedReviewerOrm)
      .values(requests.map((r) => ({ ...r })))
      .orUpdate(['requested_by', 'requested_at', 'revision'], ['change_request_id', 'user_id'])
      .execute();
  }

  /** Oldest request first. */
  async listRequests(changeRequestId: string, request: PageRequest): Promise<Page<ReviewRequest>> {
    const qb = this.manager()
      .getRepository(RequestedReviewerOrm)
      .createQueryBuilder('rr')
      .where('rr.change_request_id = :changeRequestId', { changeRequestId });
    const page = await paginate(qb, REQUEST_ORDER, request);
    return { ...page, items: page.items.map(toRequest) };
  }

  async findRequests(changeRequestId: string, userIds: string[]): Promise<Map<string, ReviewRequest>> {
    if (userIds.length === 0) return new Map();
    const rows = await this.manager()
      .getRepository(RequestedReviewerOrm)
      .createQueryBuilder('rr')
      .where('rr.change_request_id = :changeRequestId AND rr.user_id = ANY(:userIds)', { changeRequestId, userIds })
      .getMany();
    return new Map(rows.map((row) => [row.userId, toRequest(row)]));
  }

  /** Whether there was such a request. */
  async deleteRequest(changeRequestId: string, userId: string): Promise<boolean> {
    const result = await this.manager().getRepository(RequestedReviewerOrm).delete({ changeRequestId, userId });
    return (result.affected ?? 0) > 0;
  }
}

function toReview(row: ChangeRequestReviewOrm): Review {
  return {
    id: row.id,
    changeRequestId: row.changeRequestId,
    reviewerId: row.reviewerId,
    status: row.status as ReviewStatus,
    revision: row.revision,
    createdAt: row.createdAt,
  };
}

function toRequest(row: RequestedReviewerOrm): ReviewRequest {
  return {
    changeRequestId: row.changeRequestId,
    userId: row.userId,
    requestedBy: row.requestedBy,
    requestedAt: row.requestedAt,
    revision: row.revision,
  };
}
