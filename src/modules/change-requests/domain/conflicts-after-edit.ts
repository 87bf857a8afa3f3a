import type { PageNode, RevisionContent } from '../../content/domain/revision-content';
import type { ChangeRequestConflict } from './change-request';

/**
 * The conflicts that remain after an edit of the change request's content: a conflicting page
 * counts as resolved once the edit changes it in any way (its document, a field, its place) or
 * deletes it. Cheap when there are none (the usual case).
 */
export function conflictsAfterEdit(conflicts: readonly ChangeRequestConflict[], before: RevisionContent, after: RevisionContent): ChangeRequestConflict[] {
  if (conflicts.length === 0) return [];
  const wanted = new Set(conflicts.map((conflict) => conflict.page));
  const previous = pagesById(before.pages, wanted);
  const next = pagesById(after.pages, wanted);
  return conflicts.filter((conflict) => {
    const was = previous.get(conflict.page);
    const is = next.get(conflict.page);
    return !!was && !!is && was.parent === is.parent && samePage(was.node, is.node);
  });
}

function pagesById(roots: readonly PageNode[], wanted: ReadonlySet<string>): Map<string, { node: PageNode; parent: string | null }> {
  const found = new Map<string, { node: PageNode; parent: string | null }>();
  const stack: Array<{ node: PageNode; parent: string | null }> = roots.map((node) => ({ node, parent: null }));
  while (stack.length > 0 && found.size < wanted.size) {
    const entry = stack.pop()!;
    if (wanted.has(entry.node.id) && !found.has(entry.node.id)) found.set(entry.node.id, entry);
    for (const child of entry.node.pages) stack.push({ node: child, parent: entry.node.id });
  }
  return found;
}

const COMPARED = ['kind', 'title', 'slug', 'emoji', 'icon', 'description', 'hidden', 'layout', 'frontMatter', 'documentHash', 'target'] as const;

function samePage(a: PageNode, b: PageNode): boolean {
  return COMPARED.every((field) => JSON.stringify(a[field]) === JSON.stringify(b[field]));
}
