import { MergeRule, MergeRules, SpaceMergeRules } from '../../organizations/domain/merge-rules';
import { Review, isReviewOutdated, latestReviews } from './review';

/** What the merge rules look at. */
export interface MergeRulesInput {
  /** Who is merging. */
  actorId: string;
  changeRequest: {
    number: number;
    createdBy: string;
    subject: string;
    description: Record<string, unknown> | null;
    /** Its head: approvals of older heads are outdated and do not count. */
    revision: string;
  };
  /** Whether the space moved on since the change request was based on it. */
  outdated: boolean;
  /** Every review of the change request (any order). */
  reviews: readonly Review[];
}

export type MergeRulesVerdict = { ok: true; bypassed: boolean } | { ok: false; failures: string[] };

/** The rules that apply to a space: its own, or its organization's when it says `inherit`. */
export function effectiveMergeRules(space: SpaceMergeRules, organization: MergeRules): MergeRules {
  return space.type === 'inherit' ? organization : space;
}

/**
 * Decides whether a change request may be merged under `rules`; when not, says why, one
 * message per failing rule, naming who or what is missing.
 *
 * - `allow_bypass`: the listed users merge whatever the other rules say.
 * - Approvals count when they are the reviewer's latest review and of the change request's
 *   current head; an author never counts as a reviewer of their own change request (they cannot
 *   review it), so they are not required by `require_specific_reviewers` either.
 * - `require_specific_reviewers`: every listed user (but the author) approved.
 * - `require_one_of_specific_reviewers`: at least one listed user (not the author) approved.
 * - `require_at_least_one_review`: at least one approval.
 * - `require_all_reviews_approved`: no reviewer's latest review asks for changes.
 * - `require_up_to_date_change_request`: the space did not move on since it was based on it.
 * - `require_change_request_subject` / `_description`: set and not blank.
 * - `require_agent_review` and `custom` expressions cannot be evaluated by this server (no review
 *   agent, no expression engine). Rather than silently letting every merge through, they fail
 *   with a message saying so; an `allow_bypass` user can still merge.
 */
export function evaluateMergeRules(rules: MergeRules, input: MergeRulesInput): MergeRulesVerdict {
  if (rules.type === 'none') return { ok: true, bypassed: false };
  const bypass = rules.rules.find((rule) => rule.rule === 'allow_bypass');
  if (bypass && 'users' in bypass && bypass.users.includes(input.actorId)) return { ok: true, bypassed: true };

  const author = input.changeRequest.createdBy;
  const latest = latestReviews(input.reviews).filter((review) => review.reviewerId !== author);
  const approvers = new Set(
    latest.filter((review) => review.status === 'approved' && !isReviewOutdated(review, input.changeRequest.revision)).map((r) => r.reviewerId),
  );
  const failures: string[] = [];
  for (const rule of rules.rules) {
    const failure = check(rule, input, latest, approvers);
    if (failure) failures.push(failure);
  }
  return failures.length === 0 ? { ok: true, bypassed: false } : { ok: false, failures };
}

const quote = (ids: string[]) => ids.map((id) => `"${id}"`).join(', ');

function check(rule: MergeRule, input: MergeRulesInput, latest: Review[], approvers: Set<string>): string | null {
  const author = input.changeRequest.createdBy;
  switch (rule.rule) {
    case 'allow_bypass':
      return null;
    case 'require_specific_reviewers': {
      const missing = rule.users.filter((id) => id !== author && !approvers.has(id));
      return missing.length === 0 ? null : `approval required from ${quote(missing)} (require_specific_reviewers)`;
    }
    case 'require_one_of_specific_reviewers': {
      const candidates = rule.users.filter((id) => id !== author);
      if (candidates.some((id) => approvers.has(id))) return null;
      return candidates.length === 0
        ? 'approval required from one of the listed reviewers, but the rule lists none besides the author (require_one_of_specific_reviewers)'
        : `approval required from one of ${quote(candidates)} (require_one_of_specific_reviewers)`;
    }
    case 'require_at_least_one_review':
      return approvers.size > 0 ? null : 'at least one approving review of the current revision is required (require_at_least_one_review)';
    case 'require_all_reviews_approved': {
      const blocking = latest.filter((review) => review.status === 'changes-requested').map((r) => r.reviewerId);
      return blocking.length === 0 ? null : `changes were requested by ${quote(blocking)} (require_all_reviews_approved)`;
    }
    case 'require_up_to_date_change_request':
      return input.outdated ? 'the change request is not up to date with the space; update it first (require_up_to_date_change_request)' : null;
    case 'require_change_request_subject':
      return input.changeRequest.subject.trim().length > 0 ? null : 'the change request needs a subject (require_change_request_subject)';
    case 'require_change_request_description':
      return hasContent(input.changeRequest.description)
        ? null
        : 'the change request needs a description (require_change_request_description)';
    case 'require_agent_review':
      return 'an agent review is required, but this server has no review agent (require_agent_review); a bypass user may merge';
    case 'custom':
      return `custom merge rules are not supported by this server and cannot pass${rule.message ? ` ("${rule.message}")` : ''}; a bypass user may merge`;
  }
}

/** Whether a rich-text document holds anything: non-blank text, or a node without text (emoji, math, divider). */
export function hasContent(document: Record<string, unknown> | null): boolean {
  if (!document) return false;
  const visit = (node: unknown): boolean => {
    if (!node || typeof node !== 'object') return false;
    const n = node as Record<string, unknown>;
    if (n.object === 'leaf') return typeof n.text === 'string' && n.text.trim().length > 0;
    if (n.isVoid === true) return true;
    const children = (n.object === 'text' ? n.leaves : n.nodes) as unknown;
    return Array.isArray(children) && children.some(visit);
  };
  return Array.isArray(document.nodes) && document.nodes.some(visit);
}
