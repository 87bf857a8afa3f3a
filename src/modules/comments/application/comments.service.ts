import { EventOutbox } from '../../events/application/event-outbox';
import { AccessService } from '../../access/application/access.service';
import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, InvalidError, NotFoundError, Page, PageRequest, newId } from '@app/common';
import { Transactions, Tx } from '../../../database/transactions';
import { ChangeRequestsService } from '../../change-requests/application/change-requests.service';
import { ContentStore } from '../../content/application/content-store.service';
import { IdentityService } from '../../identity/application/identity.service';
import { User } from '../../identity/domain/user';
import { SpacesService } from '../../spaces/application/spaces.service';
import { Comment, CommentReply, Replier, TableCell, pageExists, sortRepliers, validateTargetRequest } from '../domain/comment';
import { parseCommentBody } from '../domain/comment-body';
import { Discussant, assertCanDelete, assertCanDiscuss } from '../domain/comment-permissions';
import { ReactionChanges, ReactionGroup, groupReactions, hasReactionChanges, parseReactionChanges } from '../domain/reactions';
import { CommentListFilter, CommentScope, CommentsRepository } from '../infrastructure/comments.repository';

/** Where a thread lives: a space's content, or one of its change requests (id or number). */
export interface ThreadRef {
  spaceId: string;
  changeRequest?: string;
}

export interface PostCommentInput {
  page?: string;
  node?: string;
  tableCell?: TableCell;
  /** GitBook `Document`: `{markdown}` or `{document}`. */
  body: unknown;
}

export interface UpdateCommentInput {
  resolved?: boolean;
  body?: unknown;
  addedReactions?: unknown[];
  removedReactions?: unknown[];
}

export type UpdateReplyInput = Omit<UpdateCommentInput, 'resolved'>;

/** Users named by a comment or a reply (author, resolver, reactions, repliers), by id. */
export type UserDirectory = ReadonlyMap<string, User>;

/** The caller: their role for permissions, and whether they see e-mail addresses (userViewer). */
export type CommentViewer = Discussant & { seesEmails: boolean };

export interface CommentView {
  comment: Comment;
  reactions: ReactionGroup[];
  repliers: Replier[];
  users: UserDirectory;
  viewer: CommentViewer;
}

export interface ReplyView {
  reply: CommentReply;
  /** Where the thread lives, for the reply's URL. */
  scope: CommentScope;
  reactions: ReactionGroup[];
  users: UserDirectory;
  viewer: CommentViewer;
}

/** A thread as the caller sees it: its scope, the revision new comments target, the caller's role. */
interface Thread {
  scope: CommentScope;
  organizationId: string;
  revisionId: string;
  viewer: CommentViewer;
}

/**
 * Comments and replies on a space's content or on a change request.
 *
 * Seeing the space (or change request) is required for everything (404 otherwise); posting,
 * replying and reacting need the `comment` role (403). Authors edit their own comments and
 * replies; authors and space editors resolve; authors and space admins delete (see
 * domain/comment-permissions). The open-comment counters (the space's `comments` for its
 * content, the change request's `comments` for its own) move in the same transaction as the
 * comment, under a row lock on the comment, so concurrent resolves and deletes never miscount.
 */
@Injectable()
export class CommentsService {
  constructor(
    private readonly comments: CommentsRepository,
    private readonly spaces: SpacesService,
    private readonly changeRequests: ChangeRequestsService,
    private readonly content: ContentStore,
    private readonly identity: IdentityService,
    private readonly access: AccessService,
    private readonly transactions: Transactions,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly outbox: EventOutbox,
  ) {}

  // ------------------------------------------------------------------------------------------
  // Comments

  async list(caller: User, ref: ThreadRef, filter: CommentListFilter, request: PageRequest): Promise<Page<CommentView>> {
    const thread = await this.openThread(caller, ref);
    const page = await this.comments.list(thread.scope, filter, request);
    return { ...page, items: await this.commentViews(page.items, thread.viewer) };
  }

  async get(caller: User, ref: ThreadRef, commentId: string): Promise<CommentView> {
    const thread = await this.openThread(caller, ref);
    return this.commentView(await this.findComment(thread, commentId), thread.viewer);
  }

  /**
   * A new open comment on the thread's current revision (the space's, or the change request's
   * head). A `page` must be a page of that revision; a `node` or `tableCell` needs the page.
   */
  async post(caller: User, ref: ThreadRef, input: PostCommentInput): Promise<CommentView> {
    validateTargetRequest(input);
    const body = parseCommentBody(input.body);
    const thread = await this.openThread(caller, ref);
    assertCanDiscuss(thread.viewer);
    if (input.page !== undefined) await this.assertPageExists(thread, input.page);
    const comment = Comment.post({
      id: newId(),
      target: {
        spaceId: thread.scope.spaceId,
        changeRequestId: thread.scope.changeRequestId,
        revisionId: thread.revisionId,
        pageId: input.page ?? null,
        nodeId: input.node ?? null,
        tableCell: input.tableCell ? { record: input.tableCell.record, definition: input.tableCell.definition } : null,
      },
      postedBy: caller.id,
      body,
      now: this.clock.now(),
    });
    await this.transactions.run(async (tx) => {
      await this.comments.insert(comment, tx);
      await this.adjustOpenComments(thread.scope, 1, tx);
      await this.announce('comment.created', thread, comment.id, tx);
    });
    return this.commentView(comment, thread.viewer);
  }

  /**
   * Edits the body (author), resolves or reopens (author or space editor) and adds or removes the
   * caller's reactions (`comment` role), all or nothing. Resolving a resolved comment, adding a
   * reaction already made or removing one not made changes nothing.
   */
  async update(caller: User, ref: ThreadRef, commentId: string, input: UpdateCommentInput): Promise<CommentView> {
    if (input.resolved === undefined && input.body === undefined && input.addedReactions === undefined && input.removedReactions === undefined) {
      throw new InvalidError('At least one of "resolved", "body", "addedReactions" and "removedReactions" is required');
    }
    const body = input.body === undefined ? undefined : parseCommentBody(input.body);
    const reactions = parseReactionChanges(input.addedReactions, input.removedReactions);
    const thread = await this.openThread(caller, ref);
    const now = this.clock.now();
    const comment = await this.transactions.run(async (tx) => {
      const found = await this.comments.find(thread.scope, commentId, tx, 'update');
      if (!found) throw NotFoundError.of('Comment', commentId);
      if (body !== undefined) {
        found.edit(thread.viewer, body, now);
        await this.comments.updateBody(found, tx);
      }
      if (input.resolved !== undefined && found.setResolved(thread.viewer, input.resolved, now)) {
        await this.comments.updateStatus(found, tx);
        await this.adjustOpenComments(thread.scope, input.resolved ? -1 : 1, tx);
        if (input.resolved) await this.announce('comment.resolved', thread, found.id, tx);
      }
      await this.applyReactions(thread.viewer, { commentId: found.id, replyId: null }, reactions, now, tx);
      return found;
    });
    return this.commentView(comment, thread.viewer);
  }

  /** Deletes the comment, its replies and reactions. False when there was no such comment. */
  async delete(caller: User, ref: ThreadRef, commentId: string): Promise<boolean> {
    const thread = await this.openThread(caller, ref);
    return this.transactions.run(async (tx) => {
      const comment = await this.comments.find(thread.scope, commentId, tx, 'update');
      if (!comment) return false;
      assertCanDelete(thread.viewer, comment.postedBy, 'comment');
      await this.comments.delete(comment.id, tx);
      if (comment.isOpen) await this.adjustOpenComments(thread.scope, -1, tx);
      return true;
    });
  }

  // ------------------------------------------------------------------------------------------
  // Replies

  async listReplies(caller: User, ref: ThreadRef, commentId: string, request: PageRequest): Promise<Page<ReplyView>> {
    const thread = await this.openThread(caller, ref);
    await this.findComment(thread, commentId);
    const page = await this.comments.listReplies(commentId, request);
    return { ...page, items: await this.replyViews(page.items, thread) };
  }

  async getReply(caller: User, ref: ThreadRef, commentId: string, replyId: string): Promise<ReplyView> {
    const thread = await this.openThread(caller, ref);
    await this.findComment(thread, commentId);
    const reply = await this.comments.findReply(commentId, replyId);
    if (!reply) throw NotFoundError.of('Comment reply', replyId);
    return (await this.replyViews([reply], thread))[0];
  }

  async postReply(caller: User, ref: ThreadRef, commentId: string, input: { body: unknown }): Promise<ReplyView> {
    const body = parseCommentBody(input.body);
    const thread = await this.openThread(caller, ref);
    assertCanDiscuss(thread.viewer);
    const reply = CommentReply.post({ id: newId(), commentId, postedBy: caller.id, body, now: this.clock.now() });
    await this.transactions.run(async (tx) => {
      // Held until commit so the comment cannot be deleted under the new reply.
      const comment = await this.comments.find(thread.scope, commentId, tx, 'share');
      if (!comment) throw NotFoundError.of('Comment', commentId);
      await this.comments.insertReply(reply, tx);
    });
    return (await this.replyViews([reply], thread))[0];
  }

  /** Edits the body (author) and adds or removes the caller's reactions (`comment` role), all or nothing. */
  async updateReply(caller: User, ref: ThreadRef, commentId: string, replyId: string, input: UpdateReplyInput): Promise<ReplyView> {
    if (input.body === undefined && input.addedReactions === undefined && input.removedReactions === undefined) {
      throw new InvalidError('At least one of "body", "addedReactions" and "removedReactions" is required');
    }
    const body = input.body === undefined ? undefined : parseCommentBody(input.body);
    const reactions = parseReactionChanges(input.addedReactions, input.removedReactions);
    const thread = await this.openThread(caller, ref);
    const now = this.clock.now();
    const reply = await this.transactions.run(async (tx) => {
      const comment = await this.comments.find(thread.scope, commentId, tx, 'share');
      if (!comment) throw NotFoundError.of('Comment', commentId);
      const found = await this.comments.findReply(commentId, replyId, tx, 'update');
      if (!found) throw NotFoundError.of('Comment reply', replyId);
      if (body !== undefined) {
        found.edit(thread.viewer, body, now);
        await this.comments.updateReplyBody(found, tx);
      }
      await this.applyReactions(thread.viewer, { commentId, replyId: found.id }, reactions, now, tx);
      return found;
    });
    return (await this.replyViews([reply], thread))[0];
  }

  /** Deletes a reply and its reactions. False when there was no such reply (or comment). */
  async deleteReply(caller: User, ref: ThreadRef, commentId: string, replyId: string): Promise<boolean> {
    const thread = await this.openThread(caller, ref);
    return this.transactions.run(async (tx) => {
      const comment = await this.comments.find(thread.scope, commentId, tx, 'share');
      if (!comment) return false;
      const reply = await this.comments.findReply(commentId, replyId, tx, 'update');
      if (!reply) return false;
      assertCanDelete(thread.viewer, reply.postedBy, 'reply');
      return this.comments.deleteReply(commentId, replyId, tx);
    });
  }

  // ------------------------------------------------------------------------------------------

  /** The space (and change request) the caller must see, else 404; the revision new comments target. */
  private async openThread(caller: User, ref: ThreadRef): Promise<Thread> {
    if (ref.changeRequest === undefined) {
      const { space, role } = await this.spaces.get(caller, ref.spaceId);
      const seesEmails = (await this.access.viewerIn(caller, space.organizationId)).seesEmails;
      return { scope: { spaceId: space.id, changeRequestId: null }, organizationId: space.organizationId, revisionId: space.revisionId, viewer: { userId: caller.id, role, seesEmails } };
    }
    const { changeRequest, space } = await this.changeRequests.resolve(caller, ref.spaceId, ref.changeRequest);
    const seesEmails = (await this.access.viewerIn(caller, space.space.organizationId)).seesEmails;
    return {
      scope: { spaceId: space.space.id, changeRequestId: changeRequest.id },
      organizationId: space.space.organizationId,
      revisionId: changeRequest.revision,
      viewer: { userId: caller.id, role: space.role, seesEmails },
    };
  }

  private announce(type: 'comment.created' | 'comment.resolved', thread: Thread, commentId: string, tx: Tx): Promise<void> {
    return this.outbox.record(tx, {
      type,
      organizationId: thread.organizationId,
      spaceId: thread.scope.spaceId,
      resource: { kind: 'comment', id: commentId },
      data: thread.scope.changeRequestId ? { changeRequest: thread.scope.changeRequestId } : {},
    });
  }

  private async findComment(thread: Thread, commentId: string): Promise<Comment> {
    const comment = await this.comments.find(thread.scope, commentId);
    if (!comment) throw NotFoundError.of('Comment', commentId);
    return comment;
  }

  private async assertPageExists(thread: Thread, pageId: string): Promise<void> {
    const revision = await this.content.getInSpace(thread.scope.spaceId, thread.revisionId);
    if (!revision || !pageExists(revision.content.pages, pageId)) {
      const where = thread.scope.changeRequestId ? "the change request's content" : "the space's current content";
      throw new InvalidError(`page: no page "${pageId}" in ${where}`);
    }
  }

  private adjustOpenComments(scope: CommentScope, delta: number, tx: Tx): Promise<void> {
    return scope.changeRequestId === null
      ? this.spaces.adjustCounters(scope.spaceId, { comments: delta }, tx)
      : this.changeRequests.adjustComments(scope.changeRequestId, delta, tx);
  }

  private async applyReactions(
    who: Discussant,
    subject: { commentId: string; replyId: string | null },
    changes: ReactionChanges,
    now: Date,
    tx: Tx,
  ): Promise<void> {
    if (!hasReactionChanges(changes)) return;
    assertCanDiscuss(who);
    await this.comments.addReactions(subject, who.userId, changes.added, now, tx);
    await this.comments.removeReactions(subject.replyId ?? subject.commentId, who.userId, changes.removed, tx);
  }

  private async commentView(comment: Comment, who: CommentViewer): Promise<CommentView> {
    return (await this.commentViews([comment], who))[0];
  }

  /** Reactions, repliers and every user they name, loaded for the whole page at once. */
  private async commentViews(comments: Comment[], who: CommentViewer): Promise<CommentView[]> {
    const ids = comments.map((c) => c.id);
    const [reactions, repliers] = await Promise.all([this.comments.reactions(ids), this.comments.repliers(ids)]);
    const userIds = new Set<string>();
    for (const comment of comments) {
      const s = comment.toState();
      userIds.add(s.postedBy);
      if (s.resolvedBy) userIds.add(s.resolvedBy);
    }
    for (const records of reactions.values()) for (const r of records) userIds.add(r.userId);
    for (const list of repliers.values()) for (const r of list) userIds.add(r.userId);
    const users = await this.identity.findByIds([...userIds]);
    return comments.map((comment) => ({
      comment,
      reactions: groupReactions(reactions.get(comment.id) ?? []),
      repliers: sortRepliers(repliers.get(comment.id) ?? []),
      users,
      viewer: who,
    }));
  }

  private async replyViews(replies: CommentReply[], thread: Thread): Promise<ReplyView[]> {
    const reactions = await this.comments.reactions(replies.map((r) => r.id));
    const userIds = new Set(replies.map((r) => r.postedBy));
    for (const records of reactions.values()) for (const r of records) userIds.add(r.userId);
    const users = await this.identity.findByIds([...userIds]);
    return replies.map((reply) => ({
      reply,
      scope: thread.scope,
      reactions: groupReactions(reactions.get(reply.id) ?? []),
      users,
      viewer: thread.viewer,
    }));
  }
}
