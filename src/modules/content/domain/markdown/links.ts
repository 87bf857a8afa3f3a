import type MarkdownIt from 'markdown-it';
import { parseTokens } from './parser';
import { resolveHref } from './refs';
import { ContentRef, LinkResolver } from './types';

export interface ExtractedLink {
  /** A link (`[text](href)`, `<autolink>`) or an image (`![alt](src)`). */
  source: 'link' | 'image';
  /** The target as markdown-it normalized it (percent-encoded). */
  href: string;
  /** What it points to; `ref.kind` is url, page, file or anchor (see resolveHref). */
  ref: ContentRef;
}

/**
 * Every link and image target in a page body, in document order, duplicates included (in
 * paragraphs, headings, lists, quotes, hints and table cells alike). Targets resolve exactly as
 * in markdownToDocument, except that images keep whatever reference the resolver gives.
 */
export function extractLinks(body: string, resolver?: LinkResolver): ExtractedLink[] {
  const links: ExtractedLink[] = [];
  const visit = (tokens: MarkdownIt.Token[]) => {
    for (const token of tokens) {
      if (token.type === 'link_open') {
        const href = token.attrGet('href') ?? '';
        links.push({ source: 'link', href, ref: resolveHref(href, resolver) });
      } else if (token.type === 'image') {
        const href = token.attrGet('src') ?? '';
        links.push({ source: 'image', href, ref: resolveHref(href, resolver) });
      }
      if (token.children) visit(token.children);
    }
  };
  visit(parseTokens(body));
  return links;
}
