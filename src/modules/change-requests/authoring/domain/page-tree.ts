import { slugify } from '../../../content/domain/markdown';
import type { PageNode } from '../../../content/domain/revision-content';

/**
 * A mutable page tree (a copy of a revision's `pages`) with the lookups authoring needs. Paths
 * follow ContentReader: the slugs of a page's document ancestors and its own; groups add
 * nothing to their children's paths.
 */
export interface Located {
  node: PageNode;
  /** null for a root page. */
  parent: PageNode | null;
  /** The list holding the page (the parent's `pages`, or the root list). */
  siblings: PageNode[];
  index: number;
}

export interface PathEntry {
  node: PageNode;
  /** URL path of the page (a group's is its slug). */
  path: string;
  /** The path its ancestors contribute. */
  parentPath: string;
}

export class PageTree {
  constructor(readonly roots: PageNode[]) {}

  static copy(pages: PageNode[]): PageTree {
    return new PageTree(structuredClone(pages));
  }

  find(id: string): Located | null {
    const visit = (nodes: PageNode[], parent: PageNode | null): Located | null => {
      for (let index = 0; index < nodes.length; index++) {
        const node = nodes[index];
        if (node.id === id) return { node, parent, siblings: nodes, index };
        const found = visit(node.pages, node);
        if (found) return found;
      }
      return null;
    };
    return visit(this.roots, null);
  }

  has(id: string): boolean {
    return this.find(id) !== null;
  }

  /** The list a new child of `parent` goes into (the root list for null). */
  childrenOf(parent: PageNode | null): PageNode[] {
    return parent ? parent.pages : this.roots;
  }

  /** Removes the page (and its subtree) from the tree; returns where it was. */
  detach(id: string): Located | null {
    const located = this.find(id);
    if (located) located.siblings.splice(located.index, 1);
    return located;
  }

  /** Every page of the tree in document order. */
  all(): PageNode[] {
    const out: PageNode[] = [];
    const visit = (nodes: PageNode[]) => {
      for (const node of nodes) {
        out.push(node);
        visit(node.pages);
      }
    };
    visit(this.roots);
    return out;
  }

  /** Every page with its path. */
  entries(): PathEntry[] {
    const out: PathEntry[] = [];
    const visit = (nodes: PageNode[], parentPath: string) => {
      for (const node of nodes) {
        const own = parentPath ? `${parentPath}/${node.slug}` : node.slug;
        out.push({ node, path: node.kind === 'group' ? node.slug : own, parentPath });
        visit(node.pages, node.kind === 'group' ? parentPath : own);
      }
    };
    visit(this.roots, '');
    return out;
  }
}

/** Whether `candidate` is `ancestor` itself or inside its subtree. */
export function isWithin(ancestor: PageNode, candidateId: string): boolean {
  if (ancestor.id === candidateId) return true;
  return ancestor.pages.some((child) => isWithin(child, candidateId));
}

/** Ids of a subtree, the root included. */
export function subtreeIds(node: PageNode): string[] {
  return [node.id, ...node.pages.flatMap(subtreeIds)];
}

/** The slug a title gives (`Getting started` -> `getting-started`); `page` when nothing is left. */
export function slugForTitle(title: string): string {
  return (slugify(title) || 'page').slice(0, 100).replace(/-+$/, '') || 'page';
}

/** `base`, or `base-2`, `base-3`... whichever no sibling (other than `self`) has. */
export function uniqueSlug(base: string, siblings: PageNode[], selfId?: string): string {
  const taken = new Set(siblings.filter((s) => s.id !== selfId).map((s) => s.slug));
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const candidate = `${base.slice(0, 100 - suffix.length)}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** The sibling (other than `self`) that already uses the slug, if any. */
export function slugTakenBy(slug: string, siblings: PageNode[], selfId?: string): PageNode | undefined {
  return siblings.find((s) => s.id !== selfId && s.slug === slug);
}
