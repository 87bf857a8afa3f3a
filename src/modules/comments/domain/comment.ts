import { InvalidError } from '@app/common';
import { Discussant, assertCanEdit, assertCanResolve } from './comment-permissions';

export type CommentStatus = 'open' | 'resolved';
export const COMMENT_STATUSES: readonly CommentStatus[] = ['open', 'resolved'];

export const NODE_ID_MAX = 128;
export const TABLE_CELL_ID_MAX = 128;

export interface TableCell {
  record: string;
  definition: string;
}

/**
 * What a comment is about. Always a revision of a space (the space's current revision, or the
 * change request's head, when it was posted); optionally a page of that revision and, within the
 * page, a node or a table cell; optionally a change request.
 */
export interface CommentTarget {
  spaceId: string;
  revisionId: string;
  changeRequestId: string | null;
  pageId: string | null;
  nodeId: string | null;
  tableCell: TableCell | null;
}

export interface CommentState {
  id: string;
  target: CommentTarget;
  postedBy: string;
  postedAt: Date;
  editedAt: Date | null;
  /** Markdown. */
  body: string;
  status: CommentStatus;
  resolvedAt: Date | null;
  resolvedBy: string | null;
}

/** Where the new comment goes, as the request names it (ids not checked yet against the content). */
export interface TargetRequest {
  page?: string;
  node?: string;
  tableCell?: TableCell;
}

/**
 * A node or a table cell lives in a page's document, so naming one needs the page; a comment
 * is about a node or a table cell, not both.
 */
export function validateTargetRequest(request: TargetRequest): void {
  if (request.node !== undefined && request.tableCell !== undefined) {
    throw new InvalidError('node, tableCell: a comment targets a node or a table cell, not both');
  }
  if (request.node !== undefined && request.page === undefined) throw new InvalidError('node: requires "page", the page holding the node');
  if (request.tableCell !== undefined && request.page === undefined) {
    throw new InvalidError('tableCell: requires "page", the page holding the table');
  }
}

/** A comment on a space's content or on a change request. */
export class Comment {
  private constructor(private state: CommentState) {}

  static post(input: { id: string; target: CommentTarget; postedBy: string; body: string; now: Date }): Comment {
    return new Comment({
      id: input.id,
      target: input.target,
      postedBy: input.postedBy,
      postedAt: input.now,
      editedAt: null,
      body: input.body,
      status: 'open',
      resolvedAt: null,
      resolvedBy: null,
    });
  }

  static fromState(state: CommentState): Comment {
    return new Comment({ ...state });
  }

  toState(): CommentState {
    return { ...this.state };
  }

  get id(): string {
    return this.state.id;
  }
  get postedBy(): string {
    return this.state.postedBy;
  }
  get status(): CommentStatus {
    return this.state.status;
  }
  get isOpen(): boolean {
    return this.state.status === 'open';
  }

  /** A new body by its author; `editedAt` records when. */
  edit(who: Discussant, body: string, now: Date): void {
    assertCanEdit(who, this.state.postedBy, 'comment');
    this.state = { ...this.state, body, editedAt: now };
  }

  /**
   * Resolves (`true`) or reopens (`false`) the comment, by its author or a space editor.
   * Returns whether the status changed; asking for the current status changes nothing.
   */
  setResolved(who: Discussant, resolved: boolean, now: Date): boolean {
    assertCanResolve(who, this.state.postedBy);
    const status: CommentStatus = resolved ? 'resolved' : 'open';
    if (status === this.state.status) return false;
    this.state = resolved
      ? { ...this.state, status, resolvedAt: now, resolvedBy: who.userId }
      : { ...this.state, status, resolvedAt: null, resolvedBy: null };
    return true;
  }
}

/** A reply in a comment's thread. */
export interface CommentReplyState {
  id: string;
  commentId: string;
  postedBy: string;
  postedAt: Date;
  editedAt: Date | null;
  body: string;
}

export class CommentReply {
  private constructor(private state: CommentReplyState) {}

  static post(input: { id: string; commentId: string; postedBy: string; body: string; now: Date }): CommentReply {
    return new CommentReply({ ...input, postedAt: input.now, editedAt: null });
  }

  static fromState(state: CommentReplyState): CommentReply {
    return new CommentReply({ ...state });
  }

  toState(): CommentReplyState {
    return { ...this.state };
  }

  get id(): string {
    return this.state.id;
  }
  get postedBy(): string {
    return this.state.postedBy;
  }

  edit(who: Discussant, body: string, now: Date): void {
    assertCanEdit(who, this.state.postedBy, 'reply');
    this.state = { ...this.state, body, editedAt: now };
  }
}

/** GitBook's `UserContributor` on a comment: one user's replies. */
export interface Replier {
  userId: string;
  count: number;
  /** When they last replied. */
  updatedAt: Date;
}

/** Most recent repliers first. */
export function sortRepliers(repliers: readonly Replier[]): Replier[] {
  return [...repliers].sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime() || a.userId.localeCompare(b.userId));
}

/** Whether a page id is in a revision's page tree (at any depth). */
export function pageExists(pages: readonly { id: string; pages?: readonly unknown[] }[], pageId: string): boolean {
  const stack = [...pages];
  while (stack.length > 0) {
    const page = stack.pop()!;
    if (page.id === pageId) return true;
    if (page.pages) stack.push(...(page.pages as { id: string; pages?: readonly unknown[] }[]));
  }
  return false;
}
