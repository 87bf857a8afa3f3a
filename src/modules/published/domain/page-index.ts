import type { PageNode } from '../../content/domain/revision-content';

/** A page of a revision with its URL path (slugs of its document ancestors and its own; groups add nothing). */
export interface IndexedPage {
  node: PageNode;
  path: string;
}

/** What a published space needs from its page tree: pages by path and by id, and the reading order. */
export interface PageIndex {
  byPath: Map<string, IndexedPage>;
  byId: Map<string, IndexedPage>;
  /** Document pages readers can navigate to, in reading order (hidden ones left out). */
  readingOrder: IndexedPage[];
}

export function indexPages(pages: PageNode[]): PageIndex {
  const byPath = new Map<string, IndexedPage>();
  const byId = new Map<string, IndexedPage>();
  const readingOrder: IndexedPage[] = [];
  const visit = (nodes: PageNode[], parentPath: string, hidden: boolean) => {
    for (const node of nodes) {
      const own = parentPath ? `${parentPath}/${node.slug}` : node.slug;
      const path = node.kind === 'group' ? parentPath : own;
      const entry = { node, path: node.kind === 'group' ? '' : own };
      byId.set(node.id, entry);
      if (node.kind === 'document') {
        if (!byPath.has(own)) byPath.set(own, entry);
        if (!hidden && !node.hidden) readingOrder.push(entry);
      }
      visit(node.pages, path, hidden || !!node.hidden);
    }
  };
  visit(pages, '', false);
  return { byPath, byId, readingOrder };
}
