import { documentToMarkdown, parsePageMarkdown } from '../../../content/domain/markdown';
import type { PageFrontMatter } from '../../../content/domain/markdown';
import { parseTokens } from '../../../content/domain/markdown/parser';
import { DocumentInput } from './changes';

/** A page's document as sent, split into what goes on the page node and the body to store. */
export interface ReadDocument {
  frontMatter: PageFrontMatter;
  /** The text of a leading `# Heading` (markdown only), removed from the body: the page title, as in Git Sync. */
  heading?: string;
  /** Markdown body, links not yet resolved. */
  body: string;
}

/**
 * Reads a document input. Markdown: front matter (title, emoji, icon, description, hidden,
 * layout), then a leading level-1 heading, which is the page title unless the front matter
 * gives one (then the heading stays in the body). A JSON document is written as markdown.
 *
 * @throws InvalidError (from the front matter parser) when the front matter is not valid.
 */
export function readDocument(input: DocumentInput): ReadDocument {
  if (input.kind === 'empty') return { frontMatter: {}, body: '' };
  if (input.kind === 'json') return { frontMatter: {}, body: documentToMarkdown(input.document) };
  const { frontMatter, body } = parsePageMarkdown(input.markdown.replace(/\r\n?/g, '\n'));
  if (frontMatter.title !== undefined) return { frontMatter, body };
  const split = leadingHeading(body);
  return split ? { frontMatter, heading: split.heading, body: split.body } : { frontMatter, body };
}

/** A body's first block when it is a level-1 heading with text: its text and the body without it. */
export function leadingHeading(body: string): { heading: string; body: string } | null {
  const tokens = parseTokens(body);
  const first = tokens[0];
  if (!first || first.type !== 'heading_open' || first.tag !== 'h1' || !first.map) return null;
  const inline = tokens[1];
  const heading = (inline?.children ?? [])
    .map((token) => {
      if (token.type === 'softbreak' || token.type === 'hardbreak') return ' ';
      if (token.type === 'text' || token.type === 'code_inline') return token.content;
      if (token.type === 'image') return (token.children ?? []).map((child) => child.content).join('');
      return '';
    })
    .join('')
    .replace(/\s+/g, ' ')
    .trim();
  if (!heading) return null;
  const lines = body.split('\n');
  const rest = lines.slice(first.map[1]).join('\n').replace(/^(?:[ \t]*\n)+/, '');
  return { heading, body: rest };
}
