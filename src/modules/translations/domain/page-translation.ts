import { createHash } from 'node:crypto';
import { countWords, mask, unmask } from '../../content/domain/markdown/protected-markdown';

export interface PageText {
  title: string;
  description: string | null;
  body: string;
}

/** What decides whether a page must be sent again: the language, the instructions and the page's text. */
export function sourceHash(language: string, instructions: string, page: PageText): string {
  return sha256(JSON.stringify([language, instructions, page.title, page.description, page.body]));
}

/** A result page as the run wrote it: a later difference means someone edited it by hand. */
export function writtenHash(page: { title: string; description?: string; documentHash?: string }): string {
  return sha256(JSON.stringify([page.title, page.description ?? null, page.documentHash ?? null]));
}

export function wordsOf(page: PageText): number {
  return countWords(page.title) + countWords(page.description ?? '') + countWords(page.body);
}

/** The plain text of a rich-text document (the instructions), for the prompt. */
export function plainText(document: unknown): string {
  const parts: string[] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    const record = node as Record<string, unknown>;
    if (typeof record.text === 'string') parts.push(record.text);
    for (const [key, value] of Object.entries(record)) if (key !== 'text') visit(value);
  };
  visit(document);
  return parts.join(' ').replace(/\s+/g, ' ').trim();
}

export interface PagePrompt {
  messages: Array<{ role: 'system' | 'user'; content: string }>;
  tokens: string[];
}

/** The chat messages for one page; the protected parts are placeholders (see protected-markdown). */
export function pagePrompt(from: string, to: string, instructions: string, page: PageText, glossary = ''): PagePrompt {
  const { text, tokens } = mask(page.body);
  const system = [
    `You translate documentation pages from the language "${from}" into "${to}".`,
    'Answer with one JSON object with the keys "title", "description" and "body", each the translation of the same key of the input.',
    'Keep the Markdown structure. Keep every placeholder such as ⟦3⟧ exactly once and unchanged: it stands for code, a link target or a tag.',
    'Do not add or remove content.',
    instructions ? `Instructions from the documentation team: ${instructions}` : '',
    glossary,
  ]
    .filter(Boolean)
    .join('\n');
  return { messages: [{ role: 'system', content: system }, { role: 'user', content: JSON.stringify({ title: page.title, description: page.description ?? '', body: text }) }], tokens };
}

/** The model's answer as a translated page; null when it is not the JSON asked for or lost a placeholder. */
export function parseAnswer(answer: string, tokens: readonly string[], original: PageText): PageText | null {
  let value: unknown;
  try {
    value = JSON.parse(answer.trim().replace(/^```(?:json)?\s*|\s*```$/g, ''));
  } catch {
    return null;
  }
  const record = value as Record<string, unknown>;
  if (!record || typeof record.title !== 'string' || typeof record.body !== 'string') return null;
  const body = unmask(record.body, tokens);
  if (body === null) return null;
  const title = record.title.trim().slice(0, 1000) || original.title;
  const description = original.description === null ? null : typeof record.description === 'string' ? record.description : original.description;
  return { title, description, body };
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
