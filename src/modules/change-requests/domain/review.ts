/** GitBook's `ChangeRequestReviewStatus`. */
export const REVIEW_STATUSES = ['approved', 'changes-requested'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

/**
 * One review of a change request, of the revision that was its head at the time. A reviewer
 * may review again; their latest review is the one that counts. A review is `outdated` once
 * the change request's head moved on (new edits, an update from the space).
 */
export interface Review {
  id: string;
  changeRequestId: string;
  reviewerId: string;
  status: ReviewStatus;
  revision: string;
  createdAt: Date;
}

export function isReviewOutdated(review: Review, changeRequestHead: string): boolean {
  return review.revision !== changeRequestHead;
}

/** Each reviewer's latest review (reviews in any order; ties broken by id). */
export function latestReviews(reviews: readonly Review[]): Review[] {
  const latest = new Map<string, Review>();
  for (const review of reviews) {
    const seen = latest.get(review.reviewerId);
    const newer =
      !seen ||
      review.createdAt.getTime() > seen.createdAt.getTime() ||
      (review.createdAt.getTime() === seen.createdAt.getTime() && review.id > seen.id);
    if (newer) latest.set(review.reviewerId, review);
  }
  return [...latest.values()];
}

/** A user asked to review a change request. */
export interface ReviewRequest {
  changeRequestId: string;
  userId: string;
  requestedBy: string;
  requestedAt: Date;
  /** The change request head when the request was made (null for requests older than the column). */
  revision: string | null;
}
