import { Injectable } from '@nestjs/common';
import { Urls } from '@app/common';
import { UserPresenter } from '../../identity/api/user.presenter';
import { User } from '../../identity/domain/user';
import { CommentView, ReplyView } from '../application/comments.service';
import { CommentFormat, formatCommentBody } from '../domain/comment-body';
import { commentPermissions } from '../domain/comment-permissions';
import { ReactionGroup } from '../domain/reactions';
import { CommentScope } from '../infrastructure/comments.repository';

/** GitBook's `Comment` and `CommentReply`, with `permissions` for the caller. */
@Injectable()
export class CommentPresenter {
  constructor(
    private readonly urls: Urls,
    private readonly users: UserPresenter,
  ) {}

  present(view: CommentView, format: CommentFormat = 'markdown') {
    const c = view.comment.toState();
    const t = c.target;
    const base = {
      object: 'comment' as const,
      id: c.id,
      postedBy: this.user(view, c.postedBy),
      postedAt: c.postedAt.toISOString(),
      ...(c.editedAt ? { editedAt: c.editedAt.toISOString() } : {}),
      reactions: this.reactions(view.reactions, view),
      replies: view.repliers.reduce((sum, r) => sum + r.count, 0),
      repliers: view.repliers.map((r) => ({ updatedAt: r.updatedAt.toISOString(), count: r.count, user: this.user(view, r.userId) })),
      body: formatCommentBody(c.body, format),
      target: {
        ...(t.nodeId !== null ? { node: { id: t.nodeId } } : {}),
        ...(t.tableCell ? { tableCell: { record: t.tableCell.record, definition: t.tableCell.definition } } : {}),
        ...(t.changeRequestId !== null ? { changeRequest: t.changeRequestId } : {}),
        ...(t.pageId !== null ? { page: { id: t.pageId } } : {}),
        space: t.spaceId,
        revision: t.revisionId,
      },
      urls: { location: this.urls.api(commentPath({ spaceId: t.spaceId, changeRequestId: t.changeRequestId }, c.id)) },
      permissions: commentPermissions(view.viewer, c.postedBy),
    };
    if (c.status === 'resolved' && c.resolvedAt && c.resolvedBy) {
      return { ...base, status: 'resolved' as const, resolvedAt: c.resolvedAt.toISOString(), resolvedBy: this.user(view, c.resolvedBy) };
    }
    return { ...base, status: 'open' as const };
  }

  presentReply(view: ReplyView, format: CommentFormat = 'markdown') {
    const r = view.reply.toState();
    return {
      object: 'comment-reply' as const,
      id: r.id,
      postedBy: this.user(view, r.postedBy),
      postedAt: r.postedAt.toISOString(),
      ...(r.editedAt ? { editedAt: r.editedAt.toISOString() } : {}),
      reactions: this.reactions(view.reactions, view),
      body: formatCommentBody(r.body, format),
      urls: { location: this.urls.api(`${commentPath(view.scope, r.commentId)}/replies/${r.id}`) },
      permissions: commentPermissions(view.viewer, r.postedBy),
    };
  }

  private reactions(groups: ReactionGroup[], view: Shown) {
    return groups.map((group) => ({
      emoji: group.emoji,
      count: group.count,
      users: group.users.map((u) => ({ user: this.user(view, u.userId), reactedAt: u.reactedAt.toISOString() })),
    }));
  }

  /** Users are never deleted; should one be missing, it still answers as a user object. */
  private user({ users, viewer }: Shown, id: string) {
    const user: User = users.get(id) ?? { id, email: '', displayName: 'Unknown user', photoUrl: null, emailVerified: false, createdAt: new Date(0) };
    return this.users.present(user, { id: viewer.userId, seesEmails: viewer.seesEmails && user.email !== '' });
  }
}

/** The users a comment or reply names, and who it is shown to. */
type Shown = Pick<CommentView, 'users' | 'viewer'>;

function commentPath(scope: CommentScope, commentId: string): string {
  const space = `/spaces/${scope.spaceId}`;
  return scope.changeRequestId === null ? `${space}/comments/${commentId}` : `${space}/change-requests/${scope.changeRequestId}/comments/${commentId}`;
}
