import { InvalidError } from '@app/common';
import {
  Collection,
  DEFAULT_COLLECTION_TITLE,
  applyChanges,
  assertNotIntoItself,
  movesNothing,
  newCollection,
} from './collection';

const now = new Date('2026-01-15T10:00:00.000Z');
const later = new Date('2026-01-16T10:00:00.000Z');

function collection(overrides: Partial<Collection> = {}): Collection {
  return { ...newCollection({ id: 'c1', organizationId: 'o1', parentId: null, title: 'Guides', position: 3, now }), ...overrides };
}

describe('newCollection', () => {
  it('inherits its default level and stamps both dates', () => {
    const c = newCollection({ id: 'c1', organizationId: 'o1', parentId: 'p', title: 'Guides', position: 2, now });
    expect(c).toEqual({
      id: 'c1',
      organizationId: 'o1',
      parentId: 'p',
      title: 'Guides',
      description: null,
      defaultLevel: 'inherit',
      position: 2,
      createdAt: now,
      updatedAt: now,
    });
  });

  it('gets a default title when none is given', () => {
    expect(newCollection({ id: 'c', organizationId: 'o', parentId: null, position: 0, now }).title).toBe(DEFAULT_COLLECTION_TITLE);
  });

  it('refuses a title over 50 characters, counting code points', () => {
    expect(() => newCollection({ id: 'c', organizationId: 'o', parentId: null, title: 'x'.repeat(51), position: 0, now })).toThrow(InvalidError);
    expect(newCollection({ id: 'c', organizationId: 'o', parentId: null, title: '📘'.repeat(50), position: 0, now }).title).toHaveLength(100);
  });
});

describe('applyChanges', () => {
  it('changes only the given fields and bumps updatedAt', () => {
    const c = collection({ description: 'About' });
    const changed = applyChanges(c, { title: 'Manuals' }, later);
    expect(changed).toEqual({ ...c, title: 'Manuals', updatedAt: later });
  });

  it('sets a null default level (no default access) and back to inherit', () => {
    const locked = applyChanges(collection(), { defaultLevel: null }, later);
    expect(locked.defaultLevel).toBeNull();
    expect(applyChanges(locked, { defaultLevel: 'inherit' }, later).defaultLevel).toBe('inherit');
    expect(applyChanges(locked, {}, later).defaultLevel).toBeNull();
  });

  it('clears the description with an empty string and refuses one over 100 characters', () => {
    expect(applyChanges(collection({ description: 'About' }), { description: '' }, later).description).toBeNull();
    expect(() => applyChanges(collection(), { description: 'x'.repeat(101) }, later)).toThrow(InvalidError);
    expect(() => applyChanges(collection(), { title: 'x'.repeat(51) }, later)).toThrow(InvalidError);
  });
});

describe('assertNotIntoItself', () => {
  const subtree = ['a', 'b', 'c'];
  it('refuses the collection itself and any collection nested in it', () => {
    expect(() => assertNotIntoItself('a', 'a', subtree)).toThrow(/into itself/);
    expect(() => assertNotIntoItself('a', 'c', subtree)).toThrow(/nested/);
  });
  it('accepts the root and unrelated collections', () => {
    expect(() => assertNotIntoItself('a', null, subtree)).not.toThrow();
    expect(() => assertNotIntoItself('a', 'z', subtree)).not.toThrow();
  });
});

describe('movesNothing', () => {
  const current = { parentId: 'p', position: 2 };
  it('is true for the same parent without a new position', () => {
    expect(movesNothing(current, { parentId: 'p', position: null }, 0)).toBe(true);
  });
  it('is true when no sibling lies between the old and the new sort key', () => {
    expect(movesNothing(current, { parentId: 'p', position: 2.5 }, 0)).toBe(true);
  });
  it('is false when a sibling is passed or the parent changes', () => {
    expect(movesNothing(current, { parentId: 'p', position: 3.5 }, 1)).toBe(false);
    expect(movesNothing(current, { parentId: null, position: null }, 0)).toBe(false);
    expect(movesNothing(current, { parentId: 'q', position: 2 }, 0)).toBe(false);
  });
});
