import { InvalidError } from '@app/common';

const MAX_MESSAGES = 50;
const MAX_TEXT = 2048;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The text of a message's content: a string, or a document's text leaves (depth-limited, as it is untrusted). */
export function messageText(content: unknown): string {
  if (typeof content === 'string') return content;
  const parts: string[] = [];
  const visit = (node: unknown, depth: number): void => {
    if (depth > 32 || parts.length > 10_000) return;
    if (Array.isArray(node)) return node.forEach((child) => visit(child, depth + 1));
    if (!isObject(node)) return;
    if (node.object === 'leaf' && typeof node.text === 'string') parts.push(node.text);
    for (const [key, value] of Object.entries(node)) if (key === 'nodes' || key === 'leaves' || key === 'fragments') visit(value, depth + 1);
    // A block between blocks reads as a new line.
    if (node.object === 'block') parts.push('\n');
  };
  visit(content, 0);
  return parts.join('').replace(/[ \t]+/g, ' ').replace(/\n{2,}/g, '\n').trim();
}

/**
 * `streamAIResponseInSite`'s input: 1 to 50 messages of GitBook's roles, each a string of at most
 * 2,048 characters or a document; the question is the last user message's text.
 */
export function questionOf(input: unknown): string {
  if (!Array.isArray(input) || input.length === 0 || input.length > MAX_MESSAGES) throw new InvalidError(`input: 1 to ${MAX_MESSAGES} messages`);
  let question: string | null = null;
  input.forEach((message, i) => {
    if (!isObject(message)) throw new InvalidError(`input[${i}]: a message`);
    if (!['user', 'assistant', 'developer'].includes(message.role as string)) throw new InvalidError(`input[${i}].role: user, assistant or developer`);
    const { content } = message;
    if (typeof content === 'string' ? content.length > MAX_TEXT : !isObject(content) || content.object !== 'document') {
      throw new InvalidError(`input[${i}].content: text of at most ${MAX_TEXT} characters, or a document`);
    }
    if (message.role === 'user') question = messageText(content).slice(0, MAX_TEXT);
  });
  if (!question || !(question as string).trim()) throw new InvalidError('input: a user message with a question');
  return (question as string).trim();
}

/** What a follow-up is searched with: the question, then the one it follows (questions like "and on Linux?" say little alone). */
export function retrievalText(question: string, previous: string | null, max = 512): string {
  return (previous ? `${question} ${previous}` : question).slice(0, max);
}
