/**
 * What a model rewriting a page (a translation, a style guide check) must not change, set aside
 * before the text goes to the model and put back after: fenced code blocks, GitBook tags
 * (`{% ... %}`), inline code, link and image targets, bare URLs, `{{ variables }}` and HTML tags.
 * Each becomes a numbered placeholder `⟦n⟧`; the model is told to keep them, and an answer that
 * lost or duplicated one is refused.
 */
const PROTECTED = [
  /^(`{3,}|~{3,})[^\n]*\n[\s\S]*?\n\1[ \t]*$/gm, // fenced code blocks
  /\{%[^\n]*?%\}/g, // GitBook tags
  /`[^`\n]+`/g, // inline code
  /(?<=\]\()[^)\s]+(?:\s+"[^"]*")?(?=\))/g, // link and image targets
  /\bhttps?:\/\/[^\s<>()\]]+/g, // bare URLs
  /\{\{[^\n]*?\}\}/g, // variables
  /<\/?[a-zA-Z][^>\n]*>/g, // HTML tags
];

export interface MaskedText {
  text: string;
  tokens: string[];
}

export function mask(text: string): MaskedText {
  const tokens: string[] = [];
  let masked = text;
  for (const pattern of PROTECTED) {
    masked = masked.replace(pattern, (match) => {
      tokens.push(match);
      return `⟦${tokens.length - 1}⟧`;
    });
  }
  return { text: masked, tokens };
}

/** Puts the protected parts back; null when the answer does not hold each placeholder exactly once. */
export function unmask(translated: string, tokens: readonly string[]): string | null {
  const seen = new Array<number>(tokens.length).fill(0);
  let bad = false;
  // Tokens were masked in order, so a token may itself contain earlier placeholders: restore from the last.
  let text = translated.replace(/⟦(\d+)⟧/g, (match, index: string) => {
    const i = Number(index);
    if (i >= tokens.length) {
      bad = true;
      return match;
    }
    seen[i]++;
    return match;
  });
  if (bad || seen.some((count, i) => count !== 1 && !tokens.some((token) => token.includes(`⟦${i}⟧`)))) return null;
  for (let i = tokens.length - 1; i >= 0; i--) text = text.split(`⟦${i}⟧`).join(tokens[i]);
  return /⟦\d+⟧/.test(text) ? null : text;
}

/** Words of a text, as the stats count them. */
export function countWords(text: string): number {
  return (text.match(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu) ?? []).length;
}
