import { ForbiddenError, InvalidError } from '@app/common';
import { Comment, CommentReply, pageExists, sortRepliers, validateTargetRequest } from './comment';
import { commentPermissions } from './comment-permissions';

const now = new Date('2026-01-15T10:00:00.000Z');
const later = new Date('2026-01-15T11:00:00.000Z');
const target = { spaceId: 's', revisionId: 'r', changeRequestId: null, pageId: null, nodeId: null, tableCell: null };
const post = () => Comment.post({ id: 'c', target, postedBy: 'author', body: 'hi', now });

describe('Comment', () => {
  it('starts open, unedited', () => {
    expect(post().toState()).toMatchObject({ status: 'open', editedAt: null, resolvedAt: null, resolvedBy: null, postedAt: now });
  });

  it('is edited by its author only, while they may comment', () => {
    const comment = post();
    comment.edit({ userId: 'author', role: 'comment' }, 'new', later);
    expect(comment.toState()).toMatchObject({ body: 'new', editedAt: later });
    expect(() => post().edit({ userId: 'other', role: 'admin' }, 'x', later)).toThrow(ForbiddenError);
    expect(() => post().edit({ userId: 'author', role: 'read' }, 'x', later)).toThrow(/comment/);
  });

  it('is resolved and reopened by its author or a space editor; the same status is no change', () => {
    const comment = post();
    expect(comment.setResolved({ userId: 'editor', role: 'edit' }, true, later)).toBe(true);
    expect(comment.toState()).toMatchObject({ status: 'resolved', resolvedAt: later, resolvedBy: 'editor' });
    expect(comment.setResolved({ userId: 'author', role: 'comment' }, true, now)).toBe(false);
    expect(comment.toState().resolvedAt).toEqual(later);
    expect(comment.setResolved({ userId: 'author', role: 'comment' }, false, now)).toBe(true);
    expect(comment.toState()).toMatchObject({ status: 'open', resolvedAt: null, resolvedBy: null });
    expect(() => post().setResolved({ userId: 'other', role: 'comment' }, true, now)).toThrow(ForbiddenError);
    expect(() => post().setResolved({ userId: 'other', role: 'read' }, true, now)).toThrow(ForbiddenError);
  });
});

describe('CommentReply', () => {
  it('is edited by its author only', () => {
    const reply = CommentReply.post({ id: 'r', commentId: 'c', postedBy: 'author', body: 'a', now });
    expect(() => reply.edit({ userId: 'x', role: 'admin' }, 'b', later)).toThrow(/author/);
    reply.edit({ userId: 'author', role: 'edit' }, 'b', later);
    expect(reply.toState()).toMatchObject({ body: 'b', editedAt: later });
  });
});

describe('commentPermissions', () => {
  it('derives view, edit, reply and delete from the role and authorship', () => {
    expect(commentPermissions({ userId: 'a', role: 'read' }, 'a')).toEqual({ view: true, edit: false, reply: false, delete: false });
    expect(commentPermissions({ userId: 'a', role: 'comment' }, 'a')).toEqual({ view: true, edit: true, reply: true, delete: true });
    expect(commentPermissions({ userId: 'b', role: 'comment' }, 'a')).toEqual({ view: true, edit: false, reply: true, delete: false });
    expect(commentPermissions({ userId: 'b', role: 'review' }, 'a')).toEqual({ view: true, edit: false, reply: true, delete: false });
    expect(commentPermissions({ userId: 'b', role: 'admin' }, 'a')).toEqual({ view: true, edit: false, reply: true, delete: true });
  });
});

describe('targets', () => {
  it('needs the page for a node or a table cell, and not both', () => {
    expect(() => validateTargetRequest({})).not.toThrow();
    expect(() => validateTargetRequest({ page: 'p' })).not.toThrow();
    expect(() => validateTargetRequest({ page: 'p', node: 'n' })).not.toThrow();
    expect(() => validateTargetRequest({ node: 'n' })).toThrow(InvalidError);
    expect(() => validateTargetRequest({ tableCell: { record: 'r', definition: 'd' } })).toThrow(/requires "page"/);
    expect(() => validateTargetRequest({ page: 'p', node: 'n', tableCell: { record: 'r', definition: 'd' } })).toThrow(/not both/);
  });

  it('finds pages at any depth', () => {
    const pages = [{ id: 'a', pages: [{ id: 'b', pages: [{ id: 'c', pages: [] }] }] }, { id: 'd', pages: [] }];
    expect(['a', 'b', 'c', 'd'].every((id) => pageExists(pages, id))).toBe(true);
    expect(pageExists(pages, 'e')).toBe(false);
    expect(pageExists([], 'a')).toBe(false);
  });
});

describe('sortRepliers', () => {
  it('puts the latest replier first', () => {
    const sorted = sortRepliers([
      { userId: 'a', count: 2, updatedAt: now },
      { userId: 'b', count: 1, updatedAt: later },
    ]);
    expect(sorted.map((r) => r.userId)).toEqual(['b', 'a']);
  });
});
