import { InvalidError } from '@app/common';
import { MAX_REACTIONS_PER_REQUEST, groupReactions, hasReactionChanges, parseReactionChanges } from './reactions';

const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s));

describe('parseReactionChanges', () => {
  it('normalizes and collapses duplicates', () => {
    expect(parseReactionChanges(['👍', '1f44d', '🎉'], undefined)).toEqual({ added: ['👍', '🎉'], removed: [] });
    expect(parseReactionChanges(undefined, ['1f389'])).toEqual({ added: [], removed: ['🎉'] });
    expect(hasReactionChanges(parseReactionChanges(undefined, undefined))).toBe(false);
    expect(hasReactionChanges(parseReactionChanges([], ['👍']))).toBe(true);
  });

  it('refuses non-emojis, naming the position', () => {
    expect(() => parseReactionChanges(['👍', 'nope'], undefined)).toThrow(/addedReactions\[1\]/);
    expect(() => parseReactionChanges(undefined, [42])).toThrow(InvalidError);
  });

  it('refuses an emoji both added and removed, whatever the spelling', () => {
    expect(() => parseReactionChanges(['👍'], ['1f44d'])).toThrow(/both add and remove/);
  });

  it('limits how many emojis one request carries', () => {
    const many = Array.from({ length: MAX_REACTIONS_PER_REQUEST + 1 }, () => '👍');
    expect(() => parseReactionChanges(many, undefined)).toThrow(/at most/);
  });
});

describe('groupReactions', () => {
  it('groups by emoji in the order of first reaction, users in the order they reacted', () => {
    const groups = groupReactions([
      { emoji: '🎉', userId: 'b', reactedAt: at(3) },
      { emoji: '👍', userId: 'c', reactedAt: at(2) },
      { emoji: '👍', userId: 'a', reactedAt: at(1) },
      { emoji: '🎉', userId: 'a', reactedAt: at(4) },
    ]);
    expect(groups).toEqual([
      { emoji: '👍', count: 2, users: [{ userId: 'a', reactedAt: at(1) }, { userId: 'c', reactedAt: at(2) }] },
      { emoji: '🎉', count: 2, users: [{ userId: 'b', reactedAt: at(3) }, { userId: 'a', reactedAt: at(4) }] },
    ]);
    expect(groupReactions([])).toEqual([]);
  });
});
