import { type StoredAddresses, sameItems, samePageFields } from './page-nodes';
import { pagePath } from './page-paths';
import type { PageNode } from './revision-content';

/** A page with its place in a tree. */
export interface PlacedPage {
  node: PageNode;
  /** URL path: slugs of its document ancestors and itself (a group's path is its slug). */
  path: string;
  /** The path its ancestors contribute. */
  parentPath: string;
  /** The pages enclosing it, outermost first. */
  ancestors: PageNode[];
}

export interface PageTreeChange {
  /**
   * Pages of the new tree that are new, moved, or differ in their own fields, path or ancestors,
   * with their place (a superset: a page may be listed whose difference is only below it).
   */
  changed: PlacedPage[];
  /** Ids of `changed` that the old tree did not hold at all. */
  added: string[];
  /** Ids of pages of the old tree that the new one does not hold. */
  removed: string[];
  /** Whether any page was added, removed, moved or renamed (so some path may have changed). */
  structural: boolean;
  /** For changed pages found at the same place in the old tree: the old page. */
  before: ReadonlyMap<string, PageNode>;
}

/**
 * What changed between two page trees, looking only where they differ: subtrees that are the
 * same object (trees read from the store share their unchanged nodes) or have the same stored
 * address are skipped without a visit, so the cost follows the change, plus one identity
 * comparison per sibling along the way.
 */
export function diffPageTrees(before: readonly PageNode[], after: readonly PageNode[], stored?: StoredAddresses): PageTreeChange {
  const changed: PlacedPage[] = [];
  const reported = new Set<string>();
  /** Ids reported with their whole subtree, and those of them the old tree had at the same place. */
  const inSubtrees = new Set<string>();
  const matched = new Set<string>();
  const unmatchedOld: PageNode[] = [];
  const previous = new Map<string, PageNode>();
  let structural = false;

  const report = (node: PageNode, parentPath: string, ancestors: PageNode[]) => {
    const placed = place(node, parentPath, ancestors);
    changed.push(placed);
    reported.add(node.id);
    return placed;
  };
  const reportSubtree = (node: PageNode, parentPath: string, ancestors: PageNode[]) => {
    const placed = report(node, parentPath, ancestors);
    inSubtrees.add(node.id);
    const inner = [...ancestors, node];
    for (const child of node.pages) reportSubtree(child, childPath(placed), inner);
  };
  const samePage = (a: PageNode, b: PageNode) => {
    if (a === b) return true;
    const address = stored?.page(a);
    return address !== undefined && address === stored?.page(b);
  };

  const comparePair = (old: PageNode, next: PageNode, parentPath: string, ancestors: PageNode[]) => {
    if (samePage(old, next)) return;
    // A new slug, title or kind changes every descendant's path or ancestors.
    if (old.slug !== next.slug || old.title !== next.title || old.kind !== next.kind) {
      structural = true;
      matched.add(next.id);
      unmatchedOld.push(...old.pages);
      reportSubtree(next, parentPath, ancestors);
      return;
    }
    let placed: PlacedPage;
    if (samePageFields(old, next)) placed = place(next, parentPath, ancestors);
    else {
      placed = report(next, parentPath, ancestors);
      previous.set(next.id, old);
    }
    compareLists(old.pages, next.pages, childPath(placed), [...ancestors, next]);
  };

  const compareLists = (old: readonly PageNode[], next: readonly PageNode[], parentPath: string, ancestors: PageNode[]) => {
    if (old === next) return;
    const oldAddresses = stored?.list(old);
    const nextAddresses = stored?.list(next);
    if (oldAddresses && sameAddresses(oldAddresses, nextAddresses)) return;
    const oldSegments = stored?.segments?.(old);
    const nextSegments = stored?.segments?.(next);
    if (oldSegments && nextSegments) {
      // Lists made of runs (chunks) of pages: a run both share holds the same pages; compare the others only.
      const inNext = new Set(nextSegments);
      const inOld = new Set(oldSegments);
      const common = (segments: ReadonlyArray<readonly PageNode[]>, other: Set<readonly PageNode[]>) => segments.filter((segment) => other.has(segment));
      if (!sameItems(common(oldSegments, inNext), common(nextSegments, inOld))) structural = true; // runs reordered
      const oldRest = oldSegments.flatMap((segment) => (inNext.has(segment) ? [] : segment));
      const nextRest = nextSegments.flatMap((segment) => (inOld.has(segment) ? [] : segment));
      return compareLists(oldRest, nextRest, parentPath, ancestors);
    }
    if (old.length === next.length) {
      let aligned = true;
      for (let i = 0; i < old.length && aligned; i++) aligned = old[i] === next[i] || old[i].id === next[i].id;
      if (aligned) {
        for (let i = 0; i < old.length; i++) if (old[i] !== next[i]) comparePair(old[i], next[i], parentPath, ancestors);
        return;
      }
    }
    // Pages were added, removed or reordered here: match by id.
    structural = true;
    const oldById = new Map(old.map((page) => [page.id, page]));
    const nextIds = new Set(next.map((page) => page.id));
    for (const page of next) {
      const previous = oldById.get(page.id);
      if (previous) comparePair(previous, page, parentPath, ancestors);
      else reportSubtree(page, parentPath, ancestors);
    }
    for (const page of old) if (!nextIds.has(page.id)) unmatchedOld.push(page);
  };

  compareLists(before, after, '', []);

  const oldIds = new Set<string>();
  const collect = (node: PageNode) => {
    oldIds.add(node.id);
    for (const child of node.pages) collect(child);
  };
  for (const node of unmatchedOld) collect(node);
  return {
    changed,
    added: [...inSubtrees].filter((id) => !oldIds.has(id) && !matched.has(id)),
    removed: [...oldIds].filter((id) => !reported.has(id)),
    structural,
    before: previous,
  };
}

/** A page placed under a parent path (groups do not add to their children's paths). */
export function place(node: PageNode, parentPath: string, ancestors: PageNode[]): PlacedPage {
  return { node, path: pagePath(parentPath, node), parentPath, ancestors };
}

function childPath(placed: PlacedPage): string {
  return placed.node.kind === 'group' ? placed.parentPath : placed.path;
}

function sameAddresses(a: readonly string[], b: readonly string[] | undefined): boolean {
  return b !== undefined && sameItems(a, b);
}
