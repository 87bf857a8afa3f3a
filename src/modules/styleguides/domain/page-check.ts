import { createHash } from 'node:crypto';
import { mask, unmask } from '../../content/domain/markdown/protected-markdown';

/** The most of a style guide's text a check gives the model; a longer guide is cut here. */
export const MAX_RULES_CHARS = 40_000;

export interface CheckedText {
  title: string;
  body: string;
}

export interface CheckPrompt {
  messages: Array<{ role: 'system' | 'user'; content: string }>;
  tokens: string[];
}

/** A style guide's pages as the rules text a check hands the model (titles as headings, in order). */
export function rulesText(pages: ReadonlyArray<{ title: string; body: string }>): string {
  const text = pages
    .map((page) => `## ${page.title}\n\n${page.body.trim()}`)
    .join('\n\n')
    .trim();
  return text.length > MAX_RULES_CHARS ? text.slice(0, MAX_RULES_CHARS) : text;
}

/** What decides whether a page must go to the model again: the rules and the page's text. */
export function checkHash(rules: string, page: CheckedText): string {
  return createHash('sha256').update(JSON.stringify([rules, page.title, page.body])).digest('hex');
}

/**
 * The chat messages asking the model to bring one page in line with the style guide. Code, link
 * targets, tags and variables are placeholders it must keep (see protected-markdown).
 */
export function checkPrompt(rules: string, page: CheckedText): CheckPrompt {
  const { text, tokens } = mask(page.body);
  const system = [
    'You are a documentation editor. Revise the page so that it follows the style guide below, and change nothing else:',
    'keep its meaning, its facts, its Markdown structure and its language. Where the page already follows the guide, keep it as it is.',
    'Answer with one JSON object with the keys "title" and "body": the revised title and the revised Markdown body.',
    'Keep every placeholder such as ⟦3⟧ exactly once and unchanged: it stands for code, a link target or a tag.',
    '',
    'Style guide:',
    rules,
  ].join('\n');
  return { messages: [{ role: 'system', content: system }, { role: 'user', content: JSON.stringify({ title: page.title, body: text }) }], tokens };
}

/** The model's answer as a revised page; null when it is not the JSON asked for, empties the title, or lost a placeholder. */
export function parseCheckAnswer(answer: string, tokens: readonly string[]): CheckedText | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer);
  } catch {
    return null;
  }
  if (!parsed || typeof parsed !== 'object') return null;
  const { title, body } = parsed as Record<string, unknown>;
  if (typeof title !== 'string' || typeof body !== 'string' || !title.trim() || title.length > 256) return null;
  const restored = unmask(body, tokens);
  return restored === null ? null : { title: title.trim(), body: restored };
}
