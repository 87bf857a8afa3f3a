import { ForbiddenError } from '@app/common';
import { MemberRole, atLeast } from '../../access/domain/roles';

/**
 * Who may do what with comments, from the caller's role on the space:
 * - `read` sees comments and replies;
 * - `comment` (and above) posts comments, replies and reactions;
 * - authors (still holding `comment`) edit and delete their own comments and replies;
 * - authors and the space's editors (`edit` and above) resolve and reopen a comment;
 * - space admins delete any comment or reply.
 */
export interface Discussant {
  userId: string;
  role: MemberRole | null;
}

export interface CommentPermissions {
  view: boolean;
  edit: boolean;
  reply: boolean;
  delete: boolean;
}

export function canDiscuss(who: Discussant): boolean {
  return atLeast(who.role, 'comment');
}

export function canEdit(who: Discussant, authorId: string): boolean {
  return who.userId === authorId && canDiscuss(who);
}

export function canDelete(who: Discussant, authorId: string): boolean {
  return canEdit(who, authorId) || atLeast(who.role, 'admin');
}

export function canResolve(who: Discussant, authorId: string): boolean {
  return canEdit(who, authorId) || atLeast(who.role, 'edit');
}

/** The `permissions` booleans of a comment or reply, for this caller. */
export function commentPermissions(who: Discussant, authorId: string): CommentPermissions {
  return {
    view: atLeast(who.role, 'read'),
    edit: canEdit(who, authorId),
    reply: canDiscuss(who),
    delete: canDelete(who, authorId),
  };
}

export function assertCanDiscuss(who: Discussant): void {
  if (!canDiscuss(who)) throw new ForbiddenError('Commenting requires the "comment" role on this space');
}

export function assertCanEdit(who: Discussant, authorId: string, what: 'comment' | 'reply'): void {
  assertCanDiscuss(who);
  if (!canEdit(who, authorId)) throw new ForbiddenError(`Only its author can edit this ${what}`);
}

export function assertCanDelete(who: Discussant, authorId: string, what: 'comment' | 'reply'): void {
  if (!canDelete(who, authorId)) throw new ForbiddenError(`Only its author or a space admin can delete this ${what}`);
}

export function assertCanResolve(who: Discussant, authorId: string): void {
  assertCanDiscuss(who);
  if (!canResolve(who, authorId)) {
    throw new ForbiddenError('Only its author or a member with the "edit" role on the space can resolve or reopen this comment');
  }
}
