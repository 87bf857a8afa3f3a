import { ConflictError, DAY_MS, InvalidError, LockedError, NotFoundError, PreconditionFailedError } from '@app/common';
import { Space } from './space';

const NOW = new Date('2026-01-15T10:00:00.000Z');
const at = (ms: number) => new Date(NOW.getTime() + ms);

function space(overrides: Partial<Parameters<typeof Space.create>[0]> = {}): Space {
  return Space.create({
    id: 'space1',
    organizationId: 'org1',
    parentId: null,
    title: 'Handbook',
    revisionId: 'rev1',
    position: 3,
    createdBy: 'user1',
    now: NOW,
    ...overrides,
  });
}

describe('Space', () => {
  describe('changedFields', () => {
    it('names what changed since the space was read; a new space, every field', () => {
      expect(space().changedFields()).toContain('title');
      const read = Space.fromState(space().toState());
      expect(read.changedFields()).toEqual([]);
      read.update({ title: 'Renamed', emoji: undefined }, 'admin', at(1000));
      expect(read.changedFields().sort()).toEqual(['title', 'updatedAt']);
      const same = Space.fromState(space().toState());
      same.update({ title: 'Handbook' }, 'admin', at(1000));
      expect(same.changedFields()).toEqual(['updatedAt']);
    });
  });

  describe('create', () => {
    it('starts private, live, inheriting access and merge rules, with no counters', () => {
      const s = space().toState();
      expect(s).toMatchObject({
        visibility: 'private',
        editMode: 'live',
        mergeRules: { type: 'inherit' },
        defaultLevel: 'inherit',
        emoji: '',
        language: null,
        deletedAt: null,
        comments: 0,
        changeRequests: 0,
        version: 1,
        createdAt: NOW,
        updatedAt: NOW,
      });
    });

    it('trims the title, defaults it, and refuses blank or over-long titles', () => {
      expect(space({ title: '  Guide  ' }).title).toBe('Guide');
      expect(space({ title: undefined }).title).toBe('Untitled');
      expect(() => space({ title: '   ' })).toThrow(InvalidError);
      expect(() => space({ title: 'x'.repeat(51) })).toThrow(InvalidError);
    });
  });

  describe('update', () => {
    it('needs admin for access and workflow settings, edit for presentation', () => {
      expect(Space.roleRequiredFor({ title: 'x', emoji: null, language: 'fr' })).toBe('edit');
      expect(Space.roleRequiredFor({ title: 'x', editMode: 'locked' })).toBe('admin');
      expect(Space.roleRequiredFor({ defaultLevel: null })).toBe('admin');
      expect(Space.roleRequiredFor({ mergeRules: { type: 'none' } })).toBe('admin');
    });

    it('applies the given fields only, and null removes the emoji', () => {
      const s = space({ emoji: '1f4d8', language: 'de' });
      s.update({ title: 'New', emoji: null }, 'edit', at(1000));
      expect(s.toState()).toMatchObject({ title: 'New', emoji: '', language: 'de', updatedAt: at(1000) });
    });

    it('refuses presentation changes by non-admins while locked, but lets admins unlock and edit', () => {
      const s = space({ editMode: 'locked' });
      expect(() => s.update({ title: 'Nope' }, 'edit', NOW)).toThrow(LockedError);
      expect(s.title).toBe('Handbook');
      s.update({ editMode: 'live' }, 'admin', NOW);
      expect(s.editMode).toBe('live');
      s.update({ editMode: 'locked', title: 'Admin may' }, 'admin', NOW);
      expect(s.toState()).toMatchObject({ editMode: 'locked', title: 'Admin may' });
    });
  });

  describe('delete and restore', () => {
    it('restores within the retention window, the boundary included', () => {
      for (const elapsed of [0, 6 * DAY_MS, 7 * DAY_MS]) {
        const s = space();
        s.delete(NOW);
        expect(s.isDeleted).toBe(true);
        s.restore(at(elapsed), 7);
        expect(s.isDeleted).toBe(false);
        expect(s.toState().updatedAt).toEqual(at(elapsed));
      }
    });

    it('treats a space past the window as gone', () => {
      const s = space();
      s.delete(NOW);
      expect(s.isRestorable(at(7 * DAY_MS + 1), 7)).toBe(false);
      expect(() => s.restore(at(7 * DAY_MS + 1), 7)).toThrow(NotFoundError);
      expect(() => s.restore(at(8 * DAY_MS), 7)).toThrow(/can no longer be restored/);
      expect(s.isDeleted).toBe(true);
      // A longer configured window still allows it.
      s.restore(at(8 * DAY_MS), 30);
      expect(s.isDeleted).toBe(false);
    });

    it('refuses to restore a space that is not deleted, or to delete twice', () => {
      const s = space();
      expect(() => s.restore(NOW, 7)).toThrow(ConflictError);
      s.delete(NOW);
      expect(() => s.delete(NOW)).toThrow(ConflictError);
    });

    it('purges exactly what can no longer be restored', () => {
      const cutoff = Space.purgeCutoff(at(10 * DAY_MS), 7);
      expect(cutoff).toEqual(at(3 * DAY_MS));
      const s = space();
      s.delete(cutoff);
      expect(s.isRestorable(at(10 * DAY_MS), 7)).toBe(true);
      const older = space();
      older.delete(new Date(cutoff.getTime() - 1));
      expect(older.isRestorable(at(10 * DAY_MS), 7)).toBe(false);
    });
  });

  describe('transfer', () => {
    it('moves to the root of the target organization', () => {
      const s = space({ parentId: 'col1' });
      s.transferTo('org2', 9, at(5));
      expect(s.toState()).toMatchObject({ organizationId: 'org2', parentId: null, position: 9, updatedAt: at(5) });
    });

    it('refuses the same organization (409) and merge rules naming users (412)', () => {
      expect(() => space().transferTo('org1', 0, NOW)).toThrow(ConflictError);
      const s = space();
      s.update({ mergeRules: { type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: ['u1'] }] } }, 'admin', NOW);
      expect(() => s.transferTo('org2', 0, NOW)).toThrow(PreconditionFailedError);
      expect(s.organizationId).toBe('org1');
      s.update({ mergeRules: { type: 'rules', rules: [{ rule: 'require_at_least_one_review' }] } }, 'admin', NOW);
      s.transferTo('org2', 0, NOW);
      expect(s.organizationId).toBe('org2');
    });
  });

  describe('duplicate', () => {
    it('copies content settings, not access, counters or identity', () => {
      const s = space({ emoji: '1f4d8', language: 'fr', editMode: 'locked', parentId: 'col1' });
      s.update({ defaultLevel: null, mergeRules: { type: 'none' } }, 'admin', NOW);
      const copy = s.duplicate({ id: 'space2', revisionId: 'rev2', position: 3.5, createdBy: 'user2', now: at(1) }).toState();
      expect(copy).toMatchObject({
        id: 'space2',
        organizationId: 'org1',
        parentId: 'col1',
        title: 'Handbook (copy)',
        emoji: '1f4d8',
        language: 'fr',
        editMode: 'locked',
        mergeRules: { type: 'none' },
        defaultLevel: 'inherit',
        revisionId: 'rev2',
        position: 3.5,
        createdBy: 'user2',
        createdAt: at(1),
        deletedAt: null,
        version: 1,
      });
    });

    it('keeps the suffix within the 50-character title limit', () => {
      const copy = space({ title: 'y'.repeat(50) }).duplicate({ id: 'c', revisionId: 'r', position: 0, createdBy: 'u', now: NOW });
      expect(copy.title).toBe('y'.repeat(43) + ' (copy)');
      expect(copy.title).toHaveLength(50);
    });
  });
});
