import { Injectable } from '@nestjs/common';
import { DataSource, In } from 'typeorm';
import { Page, PageRequest, paginate } from '@app/common';
import { Tx } from '../../../database/transactions';
import { Comment, CommentReply, CommentReplyState, CommentStatus, Replier } from '../domain/comment';
import { ReactionRecord } from '../domain/reactions';
import { CommentReactionOrm } from './comment-reaction.orm';
import { CommentReplyOrm } from './comment-reply.orm';
import { CommentOrm } from './comment.orm';

/** The comments of a space's content (`changeRequestId` null) or of one change request. */
export interface CommentScope {
  spaceId: string;
  changeRequestId: string | null;
}

export interface CommentListFilter {
  status: 'all' | CommentStatus;
  pageId?: string;
  authors?: string[];
  order: 'asc' | 'desc';
}

export type RowLock = 'update' | 'share';

const REPLY_ORDER = { columns: ['r.posted_at', 'r.id'], keys: ['postedAt', 'id'], direction: 'ASC' as const };

@Injectable()
export class CommentsRepository {
  constructor(private readonly dataSource: DataSource) {}

  private manager(tx?: Tx) {
    return tx ?? this.dataSource.manager;
  }

  // ------------------------------------------------------------------------------------------
  // Comments

  async insert(comment: Comment, tx?: Tx): Promise<void> {
    await this.manager(tx).getRepository(CommentOrm).insert(toRow(comment));
  }

  /**
   * The comment when it belongs to exactly this scope (a change request's comment is not the
   * space's). In a transaction, `lock` holds the row until it ends: `update` for changes of the
   * comment itself, `share` to add to its thread while nobody deletes it.
   */
  async find(scope: CommentScope, commentId: string, tx?: Tx, lock?: RowLock): Promise<Comment | null> {
    const qb = this.manager(tx)
      .getRepository(CommentOrm)
      .createQueryBuilder('c')
      .where('c.id = :commentId AND c.space_id = :spaceId', { commentId, spaceId: scope.spaceId });
    scopeClause(qb, scope);
    if (lock) qb.setLock(lock === 'update' ? 'pessimistic_write' : 'pessimistic_read');
    const row = await qb.getOne();
    return row ? toComment(row) : null;
  }

  async updateBody(comment: Comment, tx?: Tx): Promise<void> {
    const s = comment.toState();
    await this.manager(tx).getRepository(CommentOrm).update({ id: s.id }, { body: s.body, editedAt: s.editedAt });
  }

  async updateStatus(comment: Comment, tx?: Tx): Promise<void> {
    const s = comment.toState();
    await this.manager(tx)
      .getRepository(CommentOrm)
      .update({ id: s.id }, { status: s.status, resolvedAt: s.resolvedAt, resolvedBy: s.resolvedBy });
  }

  /** Deletes the comment with its replies and reactions (foreign keys). */
  async delete(commentId: string, tx?: Tx): Promise<void> {
    await this.manager(tx).getRepository(CommentOrm).delete({ id: commentId });
  }

  async list(scope: CommentScope, filter: CommentListFilter, request: PageRequest): Promise<Page<Comment>> {
    const qb = this.manager().getRepository(CommentOrm).createQueryBuilder('c').where('c.space_id = :spaceId', { spaceId: scope.spaceId });
    scopeClause(qb, scope);
    if (filter.status !== 'all') qb.andWhere('c.status = :status', { status: filter.status });
    if (filter.pageId !== undefined) qb.andWhere('c.page_id = :pageId', { pageId: filter.pageId });
    if (filter.authors !== undefined) qb.andWhere('c.posted_by IN (:...authors)', { authors: filter.authors.length ? filter.authors : [''] });
    const direction = filter.order === 'asc' ? 'ASC' : 'DESC';
    const page = await paginate(qb, { columns: ['c.posted_at', 'c.id'], keys: ['postedAt', 'id'], direction }, request);
    return { ...page, items: page.items.map(toComment) };
  }

  /** Everyone who posted a comment or a reply in the scope, by user id. */
  async commenterIds(scope: CommentScope): Promise<string[]> {
    const rows: { posted_by: string }[] = await this.manager().query(
      `SELECT c.posted_by FROM comments c
        WHERE c.space_id = $1 AND c.change_request_id IS NOT DISTINCT FROM $2
       UNION
       SELECT r.posted_by FROM comment_replies r JOIN comments c ON c.id = r.comment_id
        WHERE c.space_id = $1 AND c.change_request_id IS NOT DISTINCT FROM $2
       ORDER BY 1`,
      [scope.spaceId, scope.changeRequestId],
    );
    return rows.map((row) => row.posted_by);
  }

  // ------------------------------------------------------------------------------------------
  // Replies

  async insertReply(reply: CommentReply, tx?: Tx): Promise<void> {
    await this.manager(tx).getRepository(CommentReplyOrm).insert(reply.toState());
  }

  async findReply(commentId: string, replyId: string, tx?: Tx, lock?: RowLock): Promise<CommentReply | null> {
    const qb = this.manager(tx)
      .getRepository(CommentReplyOrm)
      .createQueryBuilder('r')
      .where('r.id = :replyId AND r.comment_id = :commentId', { replyId, commentId });
    if (lock) qb.setLock(lock === 'update' ? 'pessimistic_write' : 'pessimistic_read');
    const row = await qb.getOne();
    return row ? toReply(row) : null;
  }

  async updateReplyBody(reply: CommentReply, tx?: Tx): Promise<void> {
    const s = reply.toState();
    await this.manager(tx).getRepository(CommentReplyOrm).update({ id: s.id }, { body: s.body, editedAt: s.editedAt });
  }

  /** Deletes the reply and its reactions; false when it was already gone. */
  async deleteReply(commentId: string, replyId: string, tx?: Tx): Promise<boolean> {
    const result = await this.manager(tx).getRepository(CommentReplyOrm).delete({ id: replyId, commentId });
    return (result.affected ?? 0) > 0;
  }

  /** The thread, oldest reply first. */
  async listReplies(commentId: string, request: PageRequest): Promise<Page<CommentReply>> {
    const qb = this.manager().getRepository(CommentReplyOrm).createQueryBuilder('r').where('r.comment_id = :commentId', { commentId });
    const page = await paginate(qb, REPLY_ORDER, request);
    return { ...page, items: page.items.map(toReply) };
  }

  /** Per comment: each user who replied, how many times and when last. */
  async repliers(commentIds: string[], tx?: Tx): Promise<Map<string, Replier[]>> {
    const out = new Map<string, Replier[]>(commentIds.map((id) => [id, []]));
    if (commentIds.length === 0) return out;
    const rows: { comment_id: string; posted_by: string; count: string; last: Date }[] = await this.manager(tx).query(
      `SELECT comment_id, posted_by, count(*) AS count, max(posted_at) AS last
         FROM comment_replies WHERE comment_id = ANY($1) GROUP BY comment_id, posted_by`,
      [commentIds],
    );
    for (const row of rows) out.get(row.comment_id)?.push({ userId: row.posted_by, count: Number(row.count), updatedAt: new Date(row.last) });
    return out;
  }

  // ------------------------------------------------------------------------------------------
  // Reactions

  /** Adds the user's reactions; ones they already made stay as they were (and keep their time). */
  async addReactions(
    subject: { commentId: string; replyId: string | null },
    userId: string,
    emojis: string[],
    now: Date,
    tx?: Tx,
  ): Promise<void> {
    if (emojis.length === 0) return;
    await this.manager(tx)
      .createQueryBuilder()
      .insert()
      .into(CommentReactionOrm)
      .values(
        emojis.map((emoji) => ({
          subjectId: subject.replyId ?? subject.commentId,
          userId,
          emoji,
          commentId: subject.commentId,
          replyId: subject.replyId,
          reactedAt: now,
        })),
      )
      .orIgnore()
      .execute();
  }

  async removeReactions(subjectId: string, userId: string, emojis: string[], tx?: Tx): Promise<void> {
    if (emojis.length === 0) return;
    await this.manager(tx).getRepository(CommentReactionOrm).delete({ subjectId, userId, emoji: In(emojis) });
  }

  /** Reactions per comment or reply id. */
  async reactions(subjectIds: string[], tx?: Tx): Promise<Map<string, ReactionRecord[]>> {
    const out = new Map<string, ReactionRecord[]>(subjectIds.map((id) => [id, []]));
    if (subjectIds.length === 0) return out;
    const rows = await this.manager(tx).getRepository(CommentReactionOrm).findBy({ subjectId: In(subjectIds) });
    for (const row of rows) out.get(row.subjectId)?.push({ emoji: row.emoji, userId: row.userId, reactedAt: row.reactedAt });
    return out;
  }
}

function scopeClause(qb: { andWhere: (sql: string, params?: Record<string, unknown>) => unknown }, scope: CommentScope): void {
  if (scope.changeRequestId === null) qb.andWhere('c.change_request_id IS NULL');
  else qb.andWhere('c.change_request_id = :changeRequestId', { changeRequestId: scope.changeRequestId });
}

function toRow(comment: Comment): Omit<CommentOrm, 'space' | 'changeRequest'> {
  const s = comment.toState();
  return {
    id: s.id,
    spaceId: s.target.spaceId,
    changeRequestId: s.target.changeRequestId,
    revisionId: s.target.revisionId,
    pageId: s.target.pageId,
    nodeId: s.target.nodeId,
    tableRecord: s.target.tableCell?.record ?? null,
    tableDefinition: s.target.tableCell?.definition ?? null,
    postedBy: s.postedBy,
    postedAt: s.postedAt,
    editedAt: s.editedAt,
    body: s.body,
    status: s.status,
    resolvedAt: s.resolvedAt,
    resolvedBy: s.resolvedBy,
  };
}

function toComment(row: CommentOrm): Comment {
  return Comment.fromState({
    id: row.id,
    target: {
      spaceId: row.spaceId,
      revisionId: row.revisionId,
      changeRequestId: row.changeRequestId,
      pageId: row.pageId,
      nodeId: row.nodeId,
      tableCell: row.tableRecord !== null && row.tableDefinition !== null ? { record: row.tableRecord, definition: row.tableDefinition } : null,
    },
    postedBy: row.postedBy,
    postedAt: row.postedAt,
    editedAt: row.editedAt,
    body: row.body,
    status: row.status as CommentStatus,
    resolvedAt: row.resolvedAt,
    resolvedBy: row.resolvedBy,
  });
}

function toReply(row: CommentReplyOrm): CommentReply {
  const state: CommentReplyState = {
    id: row.id,
    commentId: row.commentId,
    postedBy: row.postedBy,
    postedAt: row.postedAt,
    editedAt: row.editedAt,
    body: row.body,
  };
  return CommentReply.fromState(state);
}
