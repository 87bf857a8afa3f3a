import type { PageNode } from './revision-content';

/** `slug` under `parentPath`: the slugs of a page's document ancestors and its own, `/`-separated. */
export function slugPath(parentPath: string, slug: string): string {
  return parentPath ? `${parentPath}/${slug}` : slug;
}

/** The path a page answers to: a group's is its slug alone (GitBook's sections add nothing to paths). */
export function pagePath(parentPath: string, node: PageNode): string {
  return node.kind === 'group' ? node.slug : slugPath(parentPath, node.slug);
}

/** The path a page gives its children: its own, except a group's, which gives its parent's. */
export function childrenPath(parentPath: string, node: PageNode): string {
  return node.kind === 'group' ? parentPath : slugPath(parentPath, node.slug);
}
