import { place } from './page-tree-diff';
import type { PageNode } from './revision-content';

/**
 * A small deterministic generator for randomized tests (xorshift32): `next(n)` is an integer in
 * [0, n). A failure names its seed, and the same seed replays it.
 */
export function seededRandom(seed: number): (n: number) => number {
  let state = seed >>> 0 || 1;
  return (n: number) => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) % n;
  };
}

/** Every page of a tree with what depends on its place: its own fields, its path, its ancestors' titles. */
export function pageFacts(pages: readonly PageNode[]): Map<string, string> {
  const out = new Map<string, string>();
  const visit = (nodes: readonly PageNode[], parentPath: string, ancestors: PageNode[]) => {
    for (const page of nodes) {
      const placed = place(page, parentPath, ancestors);
      const { pages: _children, ...fields } = page;
      out.set(page.id, JSON.stringify([fields, placed.path, ancestors.map((a) => a.title)]));
      visit(page.pages, page.kind === 'group' ? parentPath : placed.path, [...ancestors, page]);
    }
  };
  visit(pages, '', []);
  return out;
}
