import type { PageNode } from '../../../content/domain/revision-content';
import { sameValue } from './three-way';

// The page trees of a three-way merge, indexed by id: where each page sits and what changed on it.

export type PageFields = Omit<PageNode, 'pages'>;

export interface PageEntry {
  node: PageNode;
  parent: string | null;
}

export interface PageIndex {
  pages: Map<string, PageEntry>;
  /** Children ids per parent id (null: the top level), in order. */
  children: Map<string | null, string[]>;
}

export interface MergedPage {
  fields: PageFields;
  parent: string | null;
}

/** Fields merged by the plain three-way rule (documentHash and parent are merged apart). */
export const VALUE_FIELDS = ['kind', 'title', 'slug', 'emoji', 'icon', 'description', 'hidden', 'layout', 'target', 'frontMatter'] as const;

export function indexPages(roots: readonly PageNode[]): PageIndex {
  const pages = new Map<string, PageEntry>();
  const children = new Map<string | null, string[]>();
  const stack: Array<{ nodes: readonly PageNode[]; parent: string | null }> = [{ nodes: roots, parent: null }];
  while (stack.length > 0) {
    const { nodes, parent } = stack.pop()!;
    const ids: string[] = [];
    for (const node of nodes) {
      if (pages.has(node.id)) continue; // invalid input (duplicate id): the first one wins
      pages.set(node.id, { node, parent });
      ids.push(node.id);
      if (node.pages.length > 0) stack.push({ nodes: node.pages, parent: node.id });
    }
    children.set(parent, ids);
  }
  return { pages, children };
}

/** Whether `other` changed the page relative to `base` (any merged field; order and timestamps aside). */
export function pageChanged(base: PageEntry, other: PageEntry): boolean {
  if (base.parent !== other.parent || base.node.documentHash !== other.node.documentHash) return true;
  return VALUE_FIELDS.some((field) => !sameValue(base.node[field], other.node[field]));
}

/** The page's fields without children, with absent optional fields left out. */
export function pageFields(node: PageNode): PageFields {
  const { pages: _children, ...fields } = node;
  for (const key of Object.keys(fields) as Array<keyof PageFields>) if (fields[key] === undefined) delete fields[key];
  return fields;
}
