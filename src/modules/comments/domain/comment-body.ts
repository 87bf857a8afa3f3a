import { DomainError, InvalidError } from '@app/common';
import { documentToMarkdown, markdownToDocument } from '../../content/domain/markdown';
import type { JSONDocument } from '../../content/domain/markdown';
import { parseRichTextDocument } from '../../organizations/domain/rich-text';

/** Longest comment or reply body, in characters of markdown. */
export const COMMENT_BODY_MAX = 20_000;

/** How bodies are answered: `markdown` (the default) or GitBook's document tree. */
export type CommentFormat = 'markdown' | 'document';
export const COMMENT_FORMATS: readonly CommentFormat[] = ['markdown', 'document'];

/**
 * A comment or reply body as GitBook's `Document` carries it: `{markdown}` or `{document}` (a
 * rich-text document: paragraphs, headings, lists, quotes, hints, code, links, marks), stored as
 * markdown. Empty bodies (`{}`, blank markdown, a document without text) and bodies over
 * COMMENT_BODY_MAX characters are refused; so is any other property.
 */
export function parseCommentBody(value: unknown, field = 'body'): string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidError(`${field}: must be an object with "markdown" (a string) or "document"`);
  }
  const keys = Object.keys(value);
  const extra = keys.filter((key) => key !== 'markdown' && key !== 'document');
  if (extra.length > 0) throw new InvalidError(`${field}: unknown propert${extra.length > 1 ? 'ies' : 'y'} ${extra.map((k) => `"${k}"`).join(', ')}`);
  if (keys.length !== 1) throw new InvalidError(`${field}: give exactly one of "markdown" and "document"`);
  const body = value as { markdown?: unknown; document?: unknown };
  let markdown: string;
  if ('markdown' in body) {
    if (typeof body.markdown !== 'string') throw new InvalidError(`${field}.markdown: must be a string`);
    markdown = body.markdown;
  } else {
    const document = parseRichTextDocument(body.document, `${field}.document`);
    markdown = documentToMarkdown(document as unknown as JSONDocument);
  }
  if (markdown.trim().length === 0) throw new InvalidError(`${field}: must not be empty`);
  if (markdown.length > COMMENT_BODY_MAX) throw new InvalidError(`${field}: must be at most ${COMMENT_BODY_MAX} characters of markdown`);
  return markdown;
}

/** The validation message for a body, or null when it is acceptable (for DTO validators). */
export function commentBodyProblem(value: unknown, field = 'body'): string | null {
  try {
    parseCommentBody(value, field);
    return null;
  } catch (error) {
    if (error instanceof DomainError) return error.message;
    throw error;
  }
}

/** A stored body in the requested format. */
export function formatCommentBody(markdown: string, format: CommentFormat): { markdown: string } | { document: JSONDocument } {
  return format === 'document' ? { document: markdownToDocument(markdown) } : { markdown };
}
