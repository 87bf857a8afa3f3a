/**
 * Text in scripts written without spaces between words (Chinese, Japanese, Korean) has no
 * stemmer in PostgreSQL, and its default parser reads a whole run of such characters as one
 * word. So these runs are also indexed as character unigrams and bigrams, each encoded as an
 * ASCII token (`c<hex>` and `c<hex>x<hex>`) that any configuration and locale keep as one word.
 * A query's runs become the AND of their bigrams (or the unigram of a one-character run): a
 * substring search, whatever the word boundaries.
 */

const CJK_RUN = /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}\p{scx=Bopomofo}]+/gu;
const NOT_WORD = /[^\p{L}\p{M}\p{N}]+/u;

/** Runs of CJK letters in a text (punctuation splits runs). */
export function cjkRuns(text: string): string[] {
  const runs: string[] = [];
  for (const match of text.matchAll(CJK_RUN)) {
    for (const part of match[0].split(NOT_WORD)) if (part) runs.push(part);
  }
  return runs;
}

export function hasCjk(text: string): boolean {
  CJK_RUN.lastIndex = 0;
  const found = CJK_RUN.test(text);
  CJK_RUN.lastIndex = 0;
  return found;
}

const hex = (char: string) => (char.codePointAt(0) as number).toString(16);
const unigram = (a: string) => `c${hex(a)}`;
const bigram = (a: string, b: string) => `c${hex(a)}x${hex(b)}`;

/** The n-gram tokens of a text's CJK runs, space-separated, each once (for `to_tsvector('simple', ...)`). */
export function cjkGrams(text: string, maxTokens = 50_000): string {
  const tokens = new Set<string>();
  for (const run of cjkRuns(text)) {
    const chars = [...run];
    for (let i = 0; i < chars.length && tokens.size < maxTokens; i++) {
      tokens.add(unigram(chars[i]));
      if (i + 1 < chars.length) tokens.add(bigram(chars[i], chars[i + 1]));
    }
  }
  return [...tokens].join(' ');
}

export interface SearchQueryParts {
  /** The query without its CJK runs, for the space's configuration (`websearch_to_tsquery`). */
  text: string;
  /** The words the text part must contain, without operators (for matching sections loosely). */
  words: string;
  /** The n-gram tokens every match must contain (ANDed). */
  cjkTokens: string[];
  /** The CJK runs of the query, to place excerpts. */
  cjkRuns: string[];
}

/** Splits a search query into its spaced-language part and its CJK n-grams. */
export function splitQuery(query: string): SearchQueryParts {
  const runs = cjkRuns(query);
  const tokens = new Set<string>();
  for (const run of runs) {
    const chars = [...run];
    if (chars.length === 1) tokens.add(unigram(chars[0]));
    for (let i = 0; i + 1 < chars.length; i++) tokens.add(bigram(chars[i], chars[i + 1]));
  }
  const text = query.replace(CJK_RUN, ' ').replace(/\s+/g, ' ').trim();
  const words = text
    .split(' ')
    .filter((w) => !w.startsWith('-') && w.toLowerCase() !== 'or')
    .join(' ')
    .replace(/["]/g, ' ')
    .trim();
  return { text, words, cjkTokens: [...tokens], cjkRuns: runs };
}
