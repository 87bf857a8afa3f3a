import { childrenPath, pagePath } from './page-paths';
import { PageNode, RevisionContent, RevisionFile, ReusableContent } from './revision-content';

/**
 * What one content differs from another in GitBook's terms (`RevisionSemanticChange`): pages
 * created, deleted, moved (to another parent) or edited, files and reusable contents created,
 * deleted or edited, and variables edited. Pages are compared by id, never by position, so a
 * reorder among siblings is not a change.
 *
 * Page edits report the attributes GitBook names: title, description, slug, emoji and the
 * document (by its content hash, the page's `documentId`); a change of `icon`, `hidden` or
 * `layout` alone is not reported, as the contract has no attribute for them here.
 */
export interface ChangedPage {
  id: string;
  type: PageNode['kind'];
  title: string;
  path: string;
}

type Attribute<T> = { before?: T; after?: T };

export type SemanticChange =
  | { type: 'page_created' | 'page_deleted'; page: ChangedPage }
  | { type: 'page_moved'; page: ChangedPage; parent: { before?: ChangedPage; after?: ChangedPage } }
  | { type: 'page_edited'; page: ChangedPage; attributes: Record<string, Attribute<string>> }
  | { type: 'file_created' | 'file_deleted'; file: RevisionFile }
  | { type: 'file_edited'; file: RevisionFile; attributes: Record<string, Attribute<string | number>> }
  | { type: 'reusable_content_created' | 'reusable_content_deleted'; reusableContent: ReusableContent }
  | { type: 'reusable_content_edited'; reusableContent: ReusableContent; attributes: Record<string, Attribute<string>> }
  | { type: 'variables_edited'; variables: Record<string, Attribute<string>> };

interface IndexedPage {
  node: PageNode;
  path: string;
  parentId: string | null;
}

/** Every change from `before` (null: nothing, e.g. a space's first revision) to `after`, in tree order. */
export function semanticChanges(before: RevisionContent | null, after: RevisionContent): SemanticChange[] {
  const old = indexPages(before?.pages ?? []);
  const now = indexPages(after.pages);
  const changes: SemanticChange[] = [];
  for (const [id, current] of now) {
    const previous = old.get(id);
    if (!previous) {
      changes.push({ type: 'page_created', page: changed(current) });
      continue;
    }
    if (previous.parentId !== current.parentId) {
      const parent: { before?: ChangedPage; after?: ChangedPage } = {};
      const oldParent = previous.parentId ? old.get(previous.parentId) : undefined;
      const newParent = current.parentId ? now.get(current.parentId) : undefined;
      if (oldParent) parent.before = changed(oldParent);
      if (newParent) parent.after = changed(newParent);
      changes.push({ type: 'page_moved', page: changed(current), parent });
    }
    const attributes = pageAttributes(previous.node, current.node);
    if (Object.keys(attributes).length > 0) changes.push({ type: 'page_edited', page: changed(current), attributes });
  }
  for (const [id, previous] of old) if (!now.has(id)) changes.push({ type: 'page_deleted', page: changed(previous) });

  changes.push(...diffById(before?.files ?? [], after.files, 'file', fileAttributes));
  changes.push(...diffById(before?.reusableContents ?? [], after.reusableContents, 'reusable_content', reusableAttributes));

  const variables: Record<string, Attribute<string>> = {};
  const oldVariables = before?.variables ?? {};
  for (const key of new Set([...Object.keys(oldVariables), ...Object.keys(after.variables)])) {
    if (oldVariables[key] === after.variables[key]) continue;
    variables[key] = defined({ before: oldVariables[key], after: after.variables[key] });
  }
  if (Object.keys(variables).length > 0) changes.push({ type: 'variables_edited', variables });
  return changes;
}

function indexPages(pages: PageNode[]): Map<string, IndexedPage> {
  const index = new Map<string, IndexedPage>();
  const visit = (nodes: PageNode[], parentPath: string, parentId: string | null) => {
    for (const node of nodes) {
      index.set(node.id, { node, path: pagePath(parentPath, node), parentId });
      visit(node.pages, childrenPath(parentPath, node), node.id);
    }
  };
  visit(pages, '', null);
  return index;
}

function changed({ node, path }: IndexedPage): ChangedPage {
  return { id: node.id, type: node.kind, title: node.title, path };
}

function pageAttributes(before: PageNode, after: PageNode): Record<string, Attribute<string>> {
  const keys: (keyof PageNode)[] =
    after.kind === 'document' ? ['title', 'description', 'slug', 'emoji'] : after.kind === 'group' ? ['title', 'emoji', 'slug'] : ['title', 'emoji'];
  const attributes: Record<string, Attribute<string>> = {};
  for (const key of keys) {
    if (before[key] !== after[key]) attributes[key] = defined({ before: before[key] as string | undefined, after: after[key] as string | undefined });
  }
  if (after.kind === 'document' && before.documentHash !== after.documentHash) {
    attributes.document = defined({ before: before.documentHash, after: after.documentHash });
  }
  return attributes;
}

function fileAttributes(before: RevisionFile, after: RevisionFile): Record<string, Attribute<string | number>> {
  const attributes: Record<string, Attribute<string | number>> = {};
  if (before.name !== after.name) attributes.name = { before: before.name, after: after.name };
  if (before.contentType !== after.contentType) attributes.contentType = { before: before.contentType, after: after.contentType };
  if (before.size !== after.size) attributes.size = { before: before.size, after: after.size };
  return attributes;
}

function reusableAttributes(before: ReusableContent, after: ReusableContent): Record<string, Attribute<string>> {
  const attributes: Record<string, Attribute<string>> = {};
  if (before.title !== after.title) attributes.title = { before: before.title, after: after.title };
  if (before.documentHash !== after.documentHash) attributes.document = { before: before.documentHash, after: after.documentHash };
  return attributes;
}

function diffById<T extends { id: string }, A>(
  before: T[],
  after: T[],
  kind: 'file' | 'reusable_content',
  attributesOf: (before: T, after: T) => Record<string, A>,
): SemanticChange[] {
  const key = kind === 'file' ? 'file' : 'reusableContent';
  const old = new Map(before.map((item) => [item.id, item]));
  const current = new Set(after.map((item) => item.id));
  const changes: Record<string, unknown>[] = [];
  for (const item of after) {
    const previous = old.get(item.id);
    if (!previous) changes.push({ type: `${kind}_created`, [key]: item });
    else {
      const attributes = attributesOf(previous, item);
      if (Object.keys(attributes).length > 0) changes.push({ type: `${kind}_edited`, [key]: item, attributes });
    }
  }
  for (const item of before) if (!current.has(item.id)) changes.push({ type: `${kind}_deleted`, [key]: item });
  return changes as unknown as SemanticChange[];
}

/** Drops undefined sides (JSON has no undefined; GitBook omits the side that does not exist). */
function defined<T>(attribute: Attribute<T>): Attribute<T> {
  const out: Attribute<T> = {};
  if (attribute.before !== undefined) out.before = attribute.before;
  if (attribute.after !== undefined) out.after = attribute.after;
  return out;
}
