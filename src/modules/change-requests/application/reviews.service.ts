import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, ForbiddenError, InvalidError, NotFoundError, Page, PageRequest, newId } from '@app/common';
import { Transactions } from '../../../database/transactions';
import { AccessService, assertRole } from '../../access/application/access.service';
import { atLeast } from '../../access/domain/roles';
import { IdentityService } from '../../identity/application/identity.service';
import { UserViewer } from '../../identity/api/user.presenter';
import { User } from '../../identity/domain/user';
import { parseRichTextDocument } from '../../organizations/domain/rich-text';
import { ChangeRequest } from '../domain/change-request';
import { Review, ReviewRequest, ReviewStatus } from '../domain/review';
import { ReviewsRepository } from '../infrastructure/reviews.repository';
import { ChangeRequestsService } from './change-requests.service';

export interface ReviewView {
  review: Review;
  changeRequest: ChangeRequest;
  reviewer: User | undefined;
  /** Who asked this reviewer for a review, if someone did. */
  requestedBy: User | undefined;
  /** Who it is shown to (e-mail visibility). */
  viewer: UserViewer;
}

export interface ReviewRequestView {
  request: ReviewRequest;
  changeRequest: ChangeRequest;
  user: User | undefined;
  requestedBy: User | undefined;
  /** Who it is shown to (e-mail visibility). */
  viewer: UserViewer;
}

export interface SubmitReviewInput {
  status: ReviewStatus;
  /** Comments with a review are not supported (see submit). */
  comment?: unknown;
}

export interface RequestReviewersInput {
  users: string[];
  subject?: string;
  description?: Record<string, unknown>;
}

/**
 * Reviews of change requests and review requests — what merge rules look at. Anyone who can
 * read the space sees them. Submitting a review needs the `review` role on the space (GitBook's
 * `review` permission); an author cannot review their own change request. Requesting reviewers
 * needs `edit`, and only users who could review (members with `review` on the space, not the
 * author) may be requested.
 */
@Injectable()
export class ReviewsService {
  constructor(
    private readonly reviews: ReviewsRepository,
    private readonly changeRequests: ChangeRequestsService,
    private readonly access: AccessService,
    private readonly identity: IdentityService,
    private readonly transactions: Transactions,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async list(caller: User, spaceId: string, idOrNumber: string, filter: { outdated?: boolean }, request: PageRequest): Promise<Page<ReviewView>> {
    const { changeRequest } = await this.changeRequests.resolve(caller, spaceId, idOrNumber);
    const page = await this.reviews.list(changeRequest.id, { outdated: filter.outdated, head: changeRequest.revision }, request);
    return { ...page, items: await this.reviewViews(caller, changeRequest, page.items) };
  }

  async get(caller: User, spaceId: string, idOrNumber: string, reviewId: string): Promise<ReviewView> {
    const { changeRequest } = await this.changeRequests.resolve(caller, spaceId, idOrNumber);
    const review = await this.reviews.find(changeRequest.id, reviewId);
    if (!review) throw NotFoundError.of('Review', reviewId);
    return (await this.reviewViews(caller, changeRequest, [review]))[0];
  }

  /**
   * A review of the change request's current head. A reviewer may review again; their latest
   * review counts. Comments attached to a review are not supported: post a change request
   * comment instead (400 rather than silently dropping the text).
   */
  async submit(caller: User, spaceId: string, idOrNumber: string, input: SubmitReviewInput): Promise<ReviewView> {
    const { changeRequest, space } = await this.changeRequests.resolve(caller, spaceId, idOrNumber);
    assertRole(space.role, 'review', 'space');
    if (input.comment !== undefined) {
      throw new InvalidError('comment: comments attached to reviews are not supported; post a comment on the change request instead');
    }
    changeRequest.assertActive('reviewed');
    if (changeRequest.createdBy === caller.id) throw new ForbiddenError('Authors cannot review their own change request');
    const review: Review = {
      id: newId(),
      changeRequestId: changeRequest.id,
      reviewerId: caller.id,
      status: input.status,
      revision: changeRequest.revision,
      createdAt: this.clock.now(),
    };
    await this.reviews.insert(review);
    return (await this.reviewViews(caller, changeRequest, [review]))[0];
  }

  async listRequests(caller: User, spaceId: string, idOrNumber: string, request: PageRequest): Promise<Page<ReviewRequestView>> {
    const { changeRequest } = await this.changeRequests.resolve(caller, spaceId, idOrNumber);
    const page = await this.reviews.listRequests(changeRequest.id, request);
    return { ...page, items: await this.requestViews(caller, changeRequest, page.items) };
  }

  /**
   * Asks users to review (again: a repeated request is renewed). Optionally sets the subject
   * and description in the same transaction. Users who are not members of the organization, who
   * cannot review the space, or the author, are a 400 naming them; nothing is written then.
   */
  async request(caller: User, spaceId: string, idOrNumber: string, input: RequestReviewersInput): Promise<ReviewRequestView[]> {
    const { changeRequest, space } = await this.changeRequests.resolve(caller, spaceId, idOrNumber);
    assertRole(space.role, 'edit', 'space');
    changeRequest.assertActive('sent for review');
    const userIds = [...new Set(input.users)];
    if (userIds.includes(changeRequest.createdBy)) {
      throw new InvalidError(`users: "${changeRequest.createdBy}" is the author of the change request and cannot review it`);
    }
    await this.access.assertMembers(space.space.organizationId, userIds, 'users');
    const unable: string[] = [];
    for (const userId of userIds) {
      const context = await this.access.context(userId, space.space.organizationId);
      if (!atLeast(context.roleOnSpace(space.space.node), 'review')) unable.push(userId);
    }
    if (unable.length > 0) {
      throw new InvalidError(`users: cannot review this space (the "review" role is needed): ${unable.map((id) => `"${id}"`).join(', ')}`);
    }
    const description = input.description === undefined ? undefined : parseRichTextDocument(input.description, 'description');
    const now = this.clock.now();
    const requests: ReviewRequest[] = userIds.map((userId) => ({
      changeRequestId: changeRequest.id,
      userId,
      requestedBy: caller.id,
      requestedAt: now,
      revision: changeRequest.revision,
    }));
    const current = await this.transactions.run(async (tx) => {
      let next = changeRequest;
      if (input.subject !== undefined || description !== undefined) {
        const patched = changeRequest.update({ subject: input.subject, description: description as Record<string, unknown> | undefined }, now);
        next = await this.changeRequests.save(patched.changeRequest, tx);
      }
      await this.reviews.upsertRequests(requests, tx);
      return next;
    });
    return this.requestViews(caller, current, requests);
  }

  /** Whether there was such a request (205) or not (204). */
  async removeRequest(caller: User, spaceId: string, idOrNumber: string, userId: string): Promise<boolean> {
    const { changeRequest, space } = await this.changeRequests.resolve(caller, spaceId, idOrNumber);
    assertRole(space.role, 'edit', 'space');
    return this.reviews.deleteRequest(changeRequest.id, userId);
  }

  // ------------------------------------------------------------------------------------------

  private async reviewViews(caller: User, changeRequest: ChangeRequest, reviews: Review[]): Promise<ReviewView[]> {
    const viewer = await this.access.viewerIn(caller, changeRequest.organizationId);
    const requests = await this.reviews.findRequests(changeRequest.id, [...new Set(reviews.map((r) => r.reviewerId))]);
    const users = await this.identity.findByIds([
      ...new Set([...reviews.map((r) => r.reviewerId), ...[...requests.values()].map((r) => r.requestedBy)]),
    ]);
    return reviews.map((review) => {
      const requestedBy = requests.get(review.reviewerId)?.requestedBy;
      return {
        review,
        changeRequest,
        reviewer: users.get(review.reviewerId),
        requestedBy: requestedBy ? users.get(requestedBy) : undefined,
        viewer,
      };
    });
  }

  private async requestViews(caller: User, changeRequest: ChangeRequest, requests: ReviewRequest[]): Promise<ReviewRequestView[]> {
    const viewer = await this.access.viewerIn(caller, changeRequest.organizationId);
    const users = await this.identity.findByIds([...new Set(requests.flatMap((r) => [r.userId, r.requestedBy]))]);
    return requests.map((request) => ({
      request,
      changeRequest,
      user: users.get(request.userId),
      requestedBy: users.get(request.requestedBy),
      viewer,
    }));
  }
}
