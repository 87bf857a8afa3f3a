/** The longest section excerpt returned by search, in characters. */
export const EXCERPT_MAX = 240;

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Where a section body matches first: a word starting with one of the query's lexemes (stems
 * such as `instal` or `happi`, so the lexeme less its last letter is tried too), or a CJK run
 * of the query anywhere; -1 when none is found.
 */
export function firstMatch(text: string, lexemes: string[], cjkRuns: string[]): number {
  let at = -1;
  const take = (index: number) => {
    if (index !== -1 && (at === -1 || index < at)) at = index;
  };
  for (const run of cjkRuns) if (run) take(text.indexOf(run));
  for (const lexeme of lexemes) {
    if (!lexeme || /^c[0-9a-f]+(x[0-9a-f]+)?$/.test(lexeme)) continue;
    const stem = lexeme.length > 4 ? lexeme.slice(0, -1) : lexeme;
    const match = new RegExp(`(^|[^\\p{L}\\p{N}])${escape(stem)}`, 'iu').exec(text);
    if (match) take(match.index + match[1].length);
  }
  return at;
}

/**
 * A short excerpt of a section body around its first match (see firstMatch), or its beginning,
 * at most `max` characters plus ellipses.
 */
export function excerpt(body: string, lexemes: string[], cjkRuns: string[], max = EXCERPT_MAX): string {
  const text = body.replace(/\s+/g, ' ').trim();
  if (text.length <= max) return text;
  const at = firstMatch(text, lexemes, cjkRuns);
  if (at === -1) return `${text.slice(0, max).trimEnd()}…`;
  let start = Math.max(0, at - Math.floor(max / 3));
  if (start > 0) {
    const space = text.indexOf(' ', start);
    if (space !== -1 && space < at) start = space + 1;
  }
  const end = Math.min(text.length, start + max);
  return `${start > 0 ? '…' : ''}${text.slice(start, end).trim()}${end < text.length ? '…' : ''}`;
}
