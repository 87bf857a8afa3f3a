import { isEmoji, normalizeEmoji } from './emoji';

describe('normalizeEmoji', () => {
  it('accepts emoji characters as they are', () => {
    for (const emoji of ['👍', '🎉', '❤️', '❤', '👍🏽', '👨‍👩‍👧', '🇫🇷', '1️⃣', '#️⃣', '🏴󠁧󠁢󠁥󠁮󠁧󠁿']) {
      expect(normalizeEmoji(emoji)).toBe(emoji);
    }
  });

  it('turns code points into the characters, so both spellings are one reaction', () => {
    expect(normalizeEmoji('1f44d')).toBe('👍');
    expect(normalizeEmoji('1F389')).toBe('🎉');
    expect(normalizeEmoji('1f468-200d-1f469-200d-1f467')).toBe('👨‍👩‍👧');
    expect(normalizeEmoji('1f1eb-1f1f7')).toBe('🇫🇷');
  });

  it('refuses what is not one emoji', () => {
    for (const value of ['', 'thumbsup', ':+1:', 'a', '1', '#', '12', '👍a', 'a👍', '1👍', ' 👍', '\u200d', 'zz', 'ffffff', 'd800', '23']) {
      expect(normalizeEmoji(value)).toBeNull();
    }
    for (const value of [1, null, undefined, {}, ['👍'], true]) expect(isEmoji(value)).toBe(false);
    expect(normalizeEmoji('👍'.repeat(26))).toBeNull();
    expect(normalizeEmoji('👍'.repeat(17))).toBeNull();
  });
});
