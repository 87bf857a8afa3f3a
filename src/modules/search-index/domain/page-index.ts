import { extractSections } from '../../content/domain/markdown';
import { childrenPath, slugPath } from '../../content/domain/page-paths';
import { PageNode } from '../../content/domain/revision-content';
import { cjkGrams } from './cjk';

/** Longest text indexed per page or section (PostgreSQL caps a tsvector at 1 MB). */
export const MAX_INDEXED_CHARS = 200_000;

/** A document page of a revision as search shows it: where it sits and its ancestors' titles. */
export interface SearchablePage {
  id: string;
  title: string;
  description: string;
  documentHash: string | null;
  /** URL path, as ContentReader computes it (groups add nothing to their children's paths). */
  path: string;
  /** Titles of the enclosing pages, outermost first. */
  ancestors: string[];
}

export interface IndexedSection {
  /** Heading anchor; '' for the text before the first heading. */
  id: string;
  title: string;
  body: string;
  /** CJK n-grams of title and body (see cjk.ts). */
  grams: string;
}

/** What the index stores for one page, besides where it sits. */
export interface IndexedText {
  headings: string;
  body: string;
  titleGrams: string;
  grams: string;
  sections: IndexedSection[];
}

/** A document page at its path, under ancestors with these titles. */
export function searchablePage(node: PageNode, path: string, ancestors: string[]): SearchablePage {
  return { id: node.id, title: node.title, description: node.description ?? '', documentHash: node.documentHash ?? null, path, ancestors };
}

/** The document pages of a tree (the only pages with text), with paths and ancestors. */
export function searchablePages(pages: PageNode[]): SearchablePage[] {
  const out: SearchablePage[] = [];
  const visit = (nodes: PageNode[], parentPath: string, ancestors: string[]) => {
    for (const node of nodes) {
      if (node.kind === 'document') out.push(searchablePage(node, slugPath(parentPath, node.slug), ancestors));
      visit(node.pages ?? [], childrenPath(parentPath, node), [...ancestors, node.title]);
    }
  };
  visit(pages, '', []);
  return out;
}

const cap = (text: string) => (text.length > MAX_INDEXED_CHARS ? text.slice(0, MAX_INDEXED_CHARS) : text);

/** Splits a page body into the sections search returns, and the text the page is found by. */
export function indexText(title: string, description: string, body: string): IndexedText {
  let sections: IndexedSection[];
  try {
    sections = extractSections(body).map((s) => ({ id: s.id, title: s.title, body: cap(s.body), grams: '' }));
  } catch {
    sections = body.trim() ? [{ id: '', title: '', body: cap(body.trim()), grams: '' }] : [];
  }
  for (const section of sections) section.grams = cjkGrams(`${section.title}\n${section.body}`);
  const headings = sections.map((s) => s.title).filter(Boolean).join('\n');
  const text = cap(sections.map((s) => s.body).filter(Boolean).join('\n'));
  return {
    headings: cap(headings),
    body: text,
    titleGrams: cjkGrams(title),
    grams: cjkGrams(`${description}\n${headings}\n${text}`),
    sections,
  };
}
