import { cjkGrams, cjkRuns, hasCjk, splitQuery } from './cjk';

describe('CJK n-grams', () => {
  it('finds runs of Chinese, Japanese and Korean letters, split at punctuation', () => {
    expect(cjkRuns('Hello 中文搜索，引擎 and カタカナー 한국어')).toEqual(['中文搜索', '引擎', 'カタカナー', '한국어']);
    expect(cjkRuns('plain english')).toEqual([]);
    expect(hasCjk('plain')).toBe(false);
    expect(hasCjk('plain 中')).toBe(true);
    expect(hasCjk('plain 中')).toBe(true);
  });

  it('indexes every unigram and bigram once, as ASCII tokens', () => {
    const grams = cjkGrams('中文 中文').split(' ');
    expect(grams).toEqual(['c4e2d', 'c4e2dx6587', 'c6587']);
    expect(cjkGrams('no cjk here')).toBe('');
  });

  it('turns a query into the bigrams every match contains, and keeps the rest for the stemmer', () => {
    const parts = splitQuery('install 搜索引擎 -foo');
    expect(parts.text).toBe('install -foo');
    expect(parts.words).toBe('install');
    expect(parts.cjkRuns).toEqual(['搜索引擎']);
    const indexed = new Set(cjkGrams('我们的搜索引擎很好').split(' '));
    expect(parts.cjkTokens.length).toBe(3);
    for (const token of parts.cjkTokens) expect(indexed.has(token)).toBe(true);
  });

  it('matches a one-character query by its unigram', () => {
    const parts = splitQuery('中');
    expect(parts.cjkTokens).toEqual(['c4e2d']);
    expect(parts.text).toBe('');
  });

  it('a query absent from the text has a bigram the text lacks', () => {
    const indexed = new Set(cjkGrams('我们的搜索引擎很好').split(' '));
    expect(splitQuery('搜狗').cjkTokens.every((t) => indexed.has(t))).toBe(false);
  });
});
