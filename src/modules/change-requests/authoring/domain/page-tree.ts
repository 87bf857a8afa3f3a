import { slugify } from '../../../content/domain/markdown';
import { childrenPath, pagePath } from '../../../content/domain/page-paths';
import type { PageNode } from '../../../content/domain/revision-content';

/**
 * Where a page sits. Paths follow ContentReader: the slugs of a page's document ancestors and
 * its own; groups add nothing to their children's paths.
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

/**
 * A page tree with the lookups authoring needs. `new PageTree(pages)` only reads; `PageTree.copy`
 * gives a tree that can be edited without changing the pages it was made from: copy on write,
 * along paths. `take(id)` copies the page, its ancestors and the lists that hold them (once
 * each), and only those may be changed; every other subtree stays the very object it was, so
 * an edit of one page in a 100,000-page space copies one path, and the encoder recognises
 * everything else as already stored.
 */
export class PageTree {
  /** Pages and lists this tree made for itself: the only ones it may change. */
  private readonly own = new WeakSet<object>();

  constructor(readonly roots: PageNode[]) {}

  /** An editable tree over `pages` (which it never changes). */
  static copy(pages: PageNode[]): PageTree {
    const tree = new PageTree([...pages]);
    tree.own.add(tree.roots);
    return tree;
  }

  /** Where a page is, changing nothing. */
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

  /**
   * Where a page is, taken for editing: the page, its parent and the list holding it are this
   * tree's own copies (as are all its ancestors), so they may be changed.
   * @throws Error on a tree made with `new` (read only)
   */
  take(id: string): Located | null {
    if (!this.own.has(this.roots)) throw new Error('this page tree is read-only: make it with PageTree.copy to edit it');
    const indices = this.indicesOf(id, this.roots);
    if (!indices) return null;
    let siblings = this.roots;
    let parent: PageNode | null = null;
    for (let depth = 0; ; depth++) {
      const index = indices[depth];
      let node = siblings[index];
      if (!this.own.has(node)) {
        node = { ...node, pages: [...node.pages] };
        this.own.add(node);
        this.own.add(node.pages);
        siblings[index] = node;
      }
      if (depth === indices.length - 1) return { node, parent, siblings, index };
      parent = node;
      siblings = node.pages;
    }
  }

  /** Positions from the root list down to the page; null when absent. */
  private indicesOf(id: string, nodes: PageNode[]): number[] | null {
    for (let index = 0; index < nodes.length; index++) {
      if (nodes[index].id === id) return [index];
      const below = this.indicesOf(id, nodes[index].pages);
      if (below) return [index, ...below];
    }
    return null;
  }

  has(id: string): boolean {
    return this.find(id) !== null;
  }

  /**
   * The list a new child of `parent` goes into (the root list for null), to be changed.
   * @throws Error when `parent` was not taken for editing (see `take`)
   */
  childrenOf(parent: PageNode | null): PageNode[] {
    const list = parent ? parent.pages : this.roots;
    if (!this.own.has(list)) throw new Error(`page ${parent?.id ?? '(root)'} was not taken for editing`);
    return list;
  }

  /** Removes the page (and its subtree) from the tree; returns where it was. */
  detach(id: string): Located | null {
    const located = this.take(id);
    if (located) located.siblings.splice(located.index, 1);
    return located;
  }

  /**
   * The pages among `ids` that are in the tree, by id: one walk that stops once all are found,
   * allocating nothing per page visited (a 100,000-page tree is walked in a few milliseconds;
   * collecting its ids into a set takes tens).
   */
  pagesAmong(ids: ReadonlySet<string>): Map<string, PageNode> {
    const found = new Map<string, PageNode>();
    if (ids.size === 0) return found;
    const visit = (nodes: PageNode[]): boolean => {
      for (const node of nodes) {
        if (ids.has(node.id)) {
          found.set(node.id, node);
          if (found.size === ids.size) return true;
        }
        if (node.pages.length > 0 && visit(node.pages)) return true;
      }
      return false;
    };
    visit(this.roots);
    return found;
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

  /** A page with its path, found by one walk that stops at it; null when absent. */
  entryOf(id: string): PathEntry | null {
    const visit = (nodes: PageNode[], parentPath: string): PathEntry | null => {
      for (const node of nodes) {
        if (node.id === id) return { node, path: pagePath(parentPath, node), parentPath };
        if (node.pages.length === 0) continue;
        const found = visit(node.pages, childrenPath(parentPath, node));
        if (found) return found;
      }
      return null;
    };
    return visit(this.roots, '');
  }

  /** Every page with its path. */
  entries(): PathEntry[] {
    const out: PathEntry[] = [];
    const visit = (nodes: PageNode[], parentPath: string) => {
      for (const node of nodes) {
        out.push({ node, path: pagePath(parentPath, node), parentPath });
        visit(node.pages, childrenPath(parentPath, node));
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
