import { ConflictError, InvalidError } from '@app/common';

/** GitBook's `ChangeRequestStatus`. */
export const CHANGE_REQUEST_STATUSES = ['draft', 'open', 'merged', 'archived'] as const;
export type ChangeRequestStatus = (typeof CHANGE_REQUEST_STATUSES)[number];

/** The statuses PATCH may set (`merged` only comes from merging). */
export const SETTABLE_STATUSES = ['draft', 'open', 'archived'] as const;
export type SettableStatus = (typeof SETTABLE_STATUSES)[number];

/** The status of a new change request. */
export const INITIAL_STATUS: ChangeRequestStatus = 'draft';

export const CHANGE_REQUEST_SUBJECT_MAX = 100;

/** Space counters moved by a change of status (`changeRequestsOpen`, `changeRequestsDraft`). */
export interface CounterDelta {
  open: number;
  draft: number;
}

/**
 * GitBook's `styleguide` of a change request: the style guide check run that opened it. Later
 * runs on the same space take the open change request over; it stays marked with this run.
 */
export interface StyleguideMarker {
  site: string;
  run: string;
  /** Pages the latest check changed, once it finished. */
  changedPages?: number;
  /** Pages the model's answers could not be used for (they dropped protected code, links or tags twice): left as they were. */
  unrevisedPages?: number;
  /** Pages past the check's page limit (`STYLEGUIDE_MAX_PAGES`), in tree order: not sent to the model. */
  uncheckedPages?: number;
  /** When the latest check finished (ISO 8601). */
  checkedAt?: string;
}

/** What one style guide check did, as its marker records it. */
export type StyleguideCheckCounts = Required<Pick<StyleguideMarker, 'changedPages' | 'unrevisedPages' | 'uncheckedPages'>>;

export interface ChangeRequestState {
  id: string;
  spaceId: string;
  organizationId: string;
  /** 1, 2, 3... per space; usable in place of the id in paths. */
  number: number;
  status: ChangeRequestStatus;
  /** '' when it has none. */
  subject: string;
  /** Rich text (GitBook `JSONDocument`), already validated; null when it has none. */
  description: Record<string, unknown> | null;
  createdBy: string;
  /** The space revision it was created from. */
  revisionInitial: string;
  /** Its head: the latest revision of its content. */
  revision: string;
  /** The space revision its content is based on (created from, or last updated from). */
  revisionMergedAncestor: string;
  /** The space revision its merge produced; null until merged. */
  revisionMerged: string | null;
  /** Open comments. */
  comments: number;
  conversationsIssuesCluster: string | null;
  styleguide: StyleguideMarker | null;
  createdAt: Date;
  updatedAt: Date;
  mergedAt: Date | null;
  /**
   * Pages an update from the space could not merge (see conflictDocument), until each is
   * edited; a merge refuses while any remain.
   */
  conflicts: ChangeRequestConflict[];
  /** Optimistic concurrency token of the row. */
  version: number;
}

export interface ChangeRequestConflict {
  /** Page id. */
  page: string;
  /** Why it could not be merged (MergeConflictReason values). */
  reasons: string[];
}

export interface NewChangeRequest {
  id: string;
  spaceId: string;
  organizationId: string;
  number: number;
  subject?: string;
  /** An issues cluster of conversation insights the change request addresses. */
  conversationsIssuesCluster?: string;
  styleguide?: StyleguideMarker;
  createdBy: string;
  /** The space head when the change request is created: its initial revision and head. */
  spaceRevision: string;
  now: Date;
}

export interface ChangeRequestPatch {
  subject?: string;
  description?: Record<string, unknown>;
  status?: SettableStatus;
}

/** Moves PATCH may make; `merged` is final and only reached by merging. */
const MOVES: Record<ChangeRequestStatus, readonly ChangeRequestStatus[]> = {
  draft: ['open', 'archived'],
  open: ['draft', 'archived'],
  archived: ['open', 'draft'],
  merged: [],
};

export function normalizeSubject(subject: string): string {
  if (subject.length > CHANGE_REQUEST_SUBJECT_MAX) {
    throw new InvalidError(`subject: must be at most ${CHANGE_REQUEST_SUBJECT_MAX} characters`);
  }
  return subject;
}

/** The counters a change request in `status` accounts for. */
export function countersOf(status: ChangeRequestStatus): CounterDelta {
  return { open: status === 'open' ? 1 : 0, draft: status === 'draft' ? 1 : 0 };
}

function counterMove(from: ChangeRequestStatus, to: ChangeRequestStatus): CounterDelta {
  const before = countersOf(from);
  const after = countersOf(to);
  return { open: after.open - before.open, draft: after.draft - before.draft };
}

/**
 * A change request: a proposed edit of a space, with its own line of revisions. Immutable:
 * each rule returns the next state (and the space counter deltas it implies), so a use case
 * can write everything in one transaction or nothing at all.
 *
 * Statuses: `draft` <-> `open`; `draft`/`open` -> `archived` -> `open`/`draft`; `draft`/`open`
 * -> `merged` only by merging. A merged change request never changes again.
 */
export class ChangeRequest implements Readonly<ChangeRequestState> {
  readonly id: string;
  readonly spaceId: string;
  readonly organizationId: string;
  readonly number: number;
  readonly status: ChangeRequestStatus;
  readonly subject: string;
  readonly description: Record<string, unknown> | null;
  readonly createdBy: string;
  readonly revisionInitial: string;
  readonly revision: string;
  readonly revisionMergedAncestor: string;
  readonly revisionMerged: string | null;
  readonly comments: number;
  readonly conversationsIssuesCluster: string | null;
  readonly styleguide: StyleguideMarker | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  readonly mergedAt: Date | null;
  readonly conflicts: ChangeRequestConflict[];
  readonly version: number;

  private constructor(state: ChangeRequestState) {
    this.id = state.id;
    this.spaceId = state.spaceId;
    this.organizationId = state.organizationId;
    this.number = state.number;
    this.status = state.status;
    this.subject = state.subject;
    this.description = state.description;
    this.createdBy = state.createdBy;
    this.revisionInitial = state.revisionInitial;
    this.revision = state.revision;
    this.revisionMergedAncestor = state.revisionMergedAncestor;
    this.revisionMerged = state.revisionMerged;
    this.comments = state.comments;
    this.conversationsIssuesCluster = state.conversationsIssuesCluster;
    this.styleguide = state.styleguide ?? null;
    this.createdAt = state.createdAt;
    this.updatedAt = state.updatedAt;
    this.mergedAt = state.mergedAt;
    this.conflicts = state.conflicts;
    this.version = state.version;
  }

  static create(input: NewChangeRequest): { changeRequest: ChangeRequest; counters: CounterDelta } {
    const changeRequest = new ChangeRequest({
      id: input.id,
      spaceId: input.spaceId,
      organizationId: input.organizationId,
      number: input.number,
      status: INITIAL_STATUS,
      subject: normalizeSubject(input.subject ?? ''),
      description: null,
      createdBy: input.createdBy,
      revisionInitial: input.spaceRevision,
      revision: input.spaceRevision,
      revisionMergedAncestor: input.spaceRevision,
      revisionMerged: null,
      comments: 0,
      conversationsIssuesCluster: input.conversationsIssuesCluster ?? null,
      styleguide: input.styleguide ?? null,
      createdAt: input.now,
      updatedAt: input.now,
      mergedAt: null,
      conflicts: [],
      version: 1,
    });
    return { changeRequest, counters: countersOf(INITIAL_STATUS) };
  }

  static fromState(state: ChangeRequestState): ChangeRequest {
    return new ChangeRequest({ ...state });
  }

  toState(): ChangeRequestState {
    return {
      id: this.id,
      spaceId: this.spaceId,
      organizationId: this.organizationId,
      number: this.number,
      status: this.status,
      subject: this.subject,
      description: this.description,
      createdBy: this.createdBy,
      revisionInitial: this.revisionInitial,
      revision: this.revision,
      revisionMergedAncestor: this.revisionMergedAncestor,
      revisionMerged: this.revisionMerged,
      comments: this.comments,
      conversationsIssuesCluster: this.conversationsIssuesCluster,
      styleguide: this.styleguide,
      createdAt: this.createdAt,
      updatedAt: this.updatedAt,
      mergedAt: this.mergedAt,
      conflicts: this.conflicts,
      version: this.version,
    };
  }

  /** Open or draft: its content may still change, be updated, reviewed or merged. */
  get isActive(): boolean {
    return this.status === 'open' || this.status === 'draft';
  }

  /** Its head is still the revision it was opened on: nothing was edited or updated in it yet. */
  get isUnedited(): boolean {
    return this.revision === this.revisionInitial;
  }

  /**
   * True exactly while the space head differs from the revision the change request is based
   * on. A merged change request is never outdated (its content is in the space).
   */
  isOutdated(spaceHead: string): boolean {
    return this.status !== 'merged' && spaceHead !== this.revisionMergedAncestor;
  }

  /** Whether `status` may be reached from the current status by PATCH. */
  static canMove(from: ChangeRequestStatus, to: ChangeRequestStatus): boolean {
    return from === to ? from !== 'merged' : MOVES[from].includes(to);
  }

  /**
   * Applies a PATCH. Setting the current status again is no move (no counter change). A merged
   * change request refuses every change (409); so do moves the status rules forbid.
   */
  update(patch: ChangeRequestPatch, now: Date): { changeRequest: ChangeRequest; counters: CounterDelta } {
    if (this.status === 'merged') {
      throw new ConflictError(`Change request #${this.number} is merged; it can no longer be changed`);
    }
    const next = this.toState();
    let counters: CounterDelta = { open: 0, draft: 0 };
    if (patch.status !== undefined && patch.status !== this.status) {
      if (!ChangeRequest.canMove(this.status, patch.status)) {
        throw new ConflictError(`Change request #${this.number} cannot move from "${this.status}" to "${patch.status}"`);
      }
      counters = counterMove(this.status, patch.status);
      next.status = patch.status;
    }
    if (patch.subject !== undefined) next.subject = normalizeSubject(patch.subject);
    if (patch.description !== undefined) next.description = patch.description;
    next.updatedAt = now;
    return { changeRequest: new ChangeRequest(next), counters };
  }

  /** Content edits, updates, reviews and merges need an open or draft change request (409 otherwise). */
  assertActive(action: string): void {
    if (this.status === 'merged') throw new ConflictError(`Change request #${this.number} is already merged; it cannot be ${action}`);
    if (this.status === 'archived') {
      throw new ConflictError(`Change request #${this.number} is archived; reopen it (status "open" or "draft") before it can be ${action}`);
    }
  }

  /**
   * A new head from an edit of its content; `conflicts` are the pages still in conflict after
   * it (an edited page is no longer one).
   */
  withHead(revision: string, now: Date, conflicts: ChangeRequestConflict[] = this.conflicts): ChangeRequest {
    this.assertActive('edited');
    return new ChangeRequest({ ...this.toState(), revision, updatedAt: now, conflicts });
  }

  /**
   * Updated from the space: a new head based on the space revision `spaceHead`. Pages the
   * update could not merge join those still in conflict.
   */
  updatedFrom(spaceHead: string, revision: string, now: Date, newConflicts: ChangeRequestConflict[] = []): ChangeRequest {
    this.assertActive('updated');
    const conflicts = new Map(this.conflicts.map((conflict) => [conflict.page, conflict]));
    for (const conflict of newConflicts) {
      const reasons = new Set([...(conflicts.get(conflict.page)?.reasons ?? []), ...conflict.reasons]);
      conflicts.set(conflict.page, { page: conflict.page, reasons: [...reasons].sort() });
    }
    return new ChangeRequest({ ...this.toState(), revision, revisionMergedAncestor: spaceHead, updatedAt: now, conflicts: [...conflicts.values()] });
  }

  get hasConflicts(): boolean {
    return this.conflicts.length > 0;
  }

  /** Merged into the space as `revision`: final. */
  markMerged(revision: string, now: Date): { changeRequest: ChangeRequest; counters: CounterDelta } {
    this.assertActive('merged');
    const changeRequest = new ChangeRequest({ ...this.toState(), status: 'merged', revisionMerged: revision, mergedAt: now, updatedAt: now });
    return { changeRequest, counters: counterMove(this.status, 'merged') };
  }
}

/** `idOrNumber` from a path: a change request number (1, 2, 3...) or an id. */
export function parseChangeRequestRef(idOrNumber: string): { number: number } | { id: string } {
  if (/^[1-9][0-9]{0,8}$/.test(idOrNumber)) return { number: Number(idOrNumber) };
  return { id: idOrNumber };
}
