import { childrenPath, slugPath } from '../../content/domain/page-paths';
import type { PageNode } from '../../content/domain/revision-content';
import { safeUrl } from './html';

/** A page as readers see it: a page of the revision, or one generated for it (computed pages). */
export type ReaderPage = PageNode & {
  /** Generated pages: their content, already rendered, and as markdown. */
  generated?: { html: string; markdown: string };
  pages: ReaderPage[];
};

/** A page with its URL path (slugs of its document ancestors and its own; groups add nothing). */
export interface IndexedPage {
  node: ReaderPage;
  path: string;
  /** Hidden itself or under a hidden page: left out of everything a reader browses or searches. */
  hidden: boolean;
}

/** What a published space needs from its page tree: pages by path and by id, the reading order, and the tree itself. */
export interface PageIndex {
  tree: ReaderPage[];
  byPath: Map<string, IndexedPage>;
  byId: Map<string, IndexedPage>;
  /** Document pages readers can navigate to, in reading order (hidden ones left out). */
  readingOrder: IndexedPage[];
}

/**
 * Indexes the tree readers navigate. `expand` replaces a computed page by the pages generated
 * for it (at the same level, as GitBook shows an OpenAPI reference's pages).
 */
export function indexPages(pages: PageNode[], expand: (node: PageNode) => ReaderPage[] = () => []): PageIndex {
  const byPath = new Map<string, IndexedPage>();
  const byId = new Map<string, IndexedPage>();
  const readingOrder: IndexedPage[] = [];
  const expanded = (nodes: PageNode[]): ReaderPage[] =>
    nodes.flatMap((node) => (node.kind === 'computed' ? expand(node) : [{ ...node, pages: expanded(node.pages) }]));
  const tree = expanded(pages);
  const visit = (nodes: ReaderPage[], parentPath: string, hidden: boolean) => {
    for (const node of nodes) {
      const own = slugPath(parentPath, node.slug);
      const entry = { node, path: node.kind === 'group' ? '' : own, hidden: hidden || !!node.hidden };
      byId.set(node.id, entry);
      if (node.kind === 'document') {
        if (!byPath.has(own)) byPath.set(own, entry);
        if (!entry.hidden) readingOrder.push(entry);
      }
      visit(node.pages, childrenPath(parentPath, node), entry.hidden);
    }
  };
  visit(tree, '', false);
  return { tree, byPath, byId, readingOrder };
}

/**
 * Where a sidebar entry leads: a document to its own address, a link page to its target (a page
 * or a heading of this space, or a web address that passes safeUrl); nowhere otherwise.
 */
export function navigationHref(node: ReaderPage, index: PageIndex, href: (path: string) => string): string | undefined {
  if (node.kind === 'document') return href(index.byId.get(node.id)!.path);
  if (node.kind !== 'link' || !node.target) return undefined;
  const target = node.target;
  if (target.kind === 'url') return safeUrl(target.url) ?? undefined;
  if (target.kind === 'file' || target.space) return undefined;
  const linked = index.byId.get(target.page);
  if (!linked?.path) return undefined;
  return target.kind === 'anchor' ? `${href(linked.path)}#${encodeURIComponent(target.anchor)}` : href(linked.path);
}
