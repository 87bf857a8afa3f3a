import { serializePageMarkdown } from './markdown';
import type { PageFrontMatter } from './markdown';
import { childrenPath, pagePath } from './page-paths';
import { PageNode } from './revision-content';

/** A page of a revision with what its presentation needs from the tree. */
export interface LocatedPage {
  node: PageNode;
  /** URL path from the slugs of its document ancestors and itself (groups add nothing). */
  path: string;
  /** The path its ancestors contribute. */
  parentPath: string;
}

/**
 * Where each of these pages is, by id, found by one walk of the tree that stops once all are
 * found (a walk per id would cost one per page); absent pages are left out.
 */
export function locatePages(pages: PageNode[], pageIds: Iterable<string>): Map<string, LocatedPage> {
  const wanted = new Set(pageIds);
  const found = new Map<string, LocatedPage>();
  if (wanted.size === 0) return found;
  const visit = (nodes: PageNode[], parentPath: string): boolean => {
    for (const node of nodes) {
      if (wanted.has(node.id)) {
        found.set(node.id, { node, path: pagePath(parentPath, node), parentPath });
        if (found.size === wanted.size) return true;
      }
      if (node.pages.length > 0 && visit(node.pages, childrenPath(parentPath, node))) return true;
    }
    return false;
  };
  visit(pages, '');
  return found;
}

/** A page's markdown: its front matter (description, icon, hidden, layout) and stored body. */
export function pageMarkdown(node: PageNode, body: string): string {
  const frontMatter: PageFrontMatter = {};
  if (node.description) frontMatter.description = node.description;
  if (node.icon) frontMatter.icon = node.icon;
  if (node.hidden) frontMatter.hidden = true;
  if (node.layout && Object.keys(node.layout).length) frontMatter.layout = node.layout;
  return serializePageMarkdown({ frontMatter, body });
}
