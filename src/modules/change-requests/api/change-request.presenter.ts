import { Injectable } from '@nestjs/common';
import { Urls } from '@app/common';
import { UserPresenter, UserViewer } from '../../identity/api/user.presenter';
import { User } from '../../identity/domain/user';
import { ChangeRequestView } from '../application/change-requests.service';
import { MergeOutcome } from '../application/change-request-merge.service';
import { ReviewRequestView, ReviewView } from '../application/reviews.service';
import { ChangeRequest } from '../domain/change-request';
import { isReviewOutdated } from '../domain/review';

/** GitBook's `ChangeRequest`, `ChangeRequestReview` and `ChangeRequestRequestedReviewer` objects. */
@Injectable()
export class ChangeRequestPresenter {
  constructor(
    private readonly urls: Urls,
    private readonly users: UserPresenter,
  ) {}

  present({ changeRequest: cr, spaceRevision, createdBy, viewer }: ChangeRequestView) {
    return {
      object: 'change-request' as const,
      id: cr.id,
      number: cr.number,
      status: cr.status,
      subject: cr.subject,
      ...(cr.description ? { description: cr.description } : {}),
      createdBy: this.user(createdBy, cr.createdBy, viewer),
      createdAt: cr.createdAt.toISOString(),
      updatedAt: cr.updatedAt.toISOString(),
      space: cr.spaceId,
      revision: cr.revision,
      revisionInitial: cr.revisionInitial,
      revisionMergedAncestor: cr.revisionMergedAncestor,
      ...(cr.revisionMerged ? { revisionMerged: cr.revisionMerged } : {}),
      comments: cr.comments,
      outdated: cr.isOutdated(spaceRevision),
      conflicts: cr.conflicts.map((conflict) => ({ page: conflict.page, reasons: conflict.reasons })),
      ...(cr.conversationsIssuesCluster ? { conversationsIssuesCluster: cr.conversationsIssuesCluster } : {}),
      ...(cr.styleguide ? { styleguide: cr.styleguide } : {}),
      urls: {
        app: this.urls.app(`/s/${cr.spaceId}/~/changes/${cr.number}`),
        location: this.location(cr),
      },
    };
  }

  presentMerge({ revision, conflicts }: MergeOutcome) {
    return { revision, result: conflicts ? ('conflicts' as const) : ('merge' as const) };
  }

  presentUpdate({ revision, conflicts }: MergeOutcome) {
    return { revision, result: conflicts ? ('conflicts' as const) : ('update' as const) };
  }

  presentReview({ review, changeRequest, reviewer, requestedBy, viewer }: ReviewView) {
    return {
      object: 'change-request-review' as const,
      id: review.id,
      revision: review.revision,
      reviewer: this.user(reviewer, review.reviewerId, viewer),
      ...(requestedBy ? { requestedBy: this.users.present(requestedBy, viewer) } : {}),
      status: review.status,
      outdated: isReviewOutdated(review, changeRequest.revision),
      createdAt: review.createdAt.toISOString(),
      updatedAt: review.createdAt.toISOString(),
      urls: { location: `${this.location(changeRequest)}/reviews/${review.id}` },
    };
  }

  presentRequest({ request, changeRequest, user, requestedBy, viewer }: ReviewRequestView) {
    return {
      object: 'change-request-requested-reviewer' as const,
      kind: 'user' as const,
      user: this.user(user, request.userId, viewer),
      revision: request.revision ?? changeRequest.revision,
      requestedBy: this.user(requestedBy, request.requestedBy, viewer),
      createdAt: request.requestedAt.toISOString(),
    };
  }

  private location(cr: ChangeRequest): string {
    return this.urls.api(`/spaces/${cr.spaceId}/change-requests/${cr.id}`);
  }

  private user(user: User | undefined, id: string, viewer: UserViewer) {
    return this.users.presentOrDeleted(user, id, viewer);
  }
}
