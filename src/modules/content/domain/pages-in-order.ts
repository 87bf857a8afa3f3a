import type { PageNode } from './revision-content';

/** Every page of a tree, parents before their children, siblings in order (no recursion: deep trees are fine). */
export function pagesInOrder(nodes: readonly PageNode[]): PageNode[] {
  const out: PageNode[] = [];
  const stack = [...nodes].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    out.push(node);
    for (let i = node.pages.length - 1; i >= 0; i--) stack.push(node.pages[i]);
  }
  return out;
}
