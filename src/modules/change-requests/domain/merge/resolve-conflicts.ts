import type { PageNode, RevisionContent } from '../../../content/domain/revision-content';
import { EditablePageTree } from './editable-page-tree';
import type { MergeConflict, MergeConflictReason } from './merge-conflict';
import { mergeRevisionContent } from './merge-revision-content';

/** A page an update could not merge: kept in the change request's version, both sides shown in its document. */
export interface ConflictingPage {
  id: string;
  reasons: MergeConflictReason[];
}

export type ConflictResolution =
  | {
      ok: true;
      /** The merge with every conflicting page (and item) in the change request's version. */
      content: RevisionContent;
      newDocuments: Map<string, string>;
      pages: ConflictingPage[];
      /** Files, variables and reusable contents both sides changed: the change request's version is kept. */
      items: MergeConflict[];
    }
  | { ok: false; conflicts: MergeConflict[] };

/** Each round settles at least one page or item; real inputs settle in two or three. */
const MAX_ROUNDS = 50;

/**
 * Updating a change request from the space when the three-way merge meets conflicts: instead
 * of refusing, settle every conflict in favour of the change request and remember which pages
 * were concerned, so that their documents can show both sides (conflictDocument) and the user
 * can resolve them by editing.
 *
 * Each round merges, then, for every conflict, makes the two sides agree on the item: a page
 * the change request has is copied (fields and place) into the space's side, with whatever
 * ancestors it needs there; a page only the space still has (the change request deleted it, the
 * space changed it) is copied into the change request's side instead, so it survives for the
 * user to delete again or keep. Two different pages that would share a slug: the one only the
 * space has gets a free slug. Every page copied over is a conflicting page. The sides agree on
 * more items each round, so the merge ends without conflicts; MAX_ROUNDS is a guard.
 *
 * `ours` is the change request's head, `theirs` the space head. Pure.
 */
export function resolveConflictsForUpdate(
  base: RevisionContent,
  ours: RevisionContent,
  theirs: RevisionContent,
  documents: ReadonlyMap<string, string>,
  now: string,
): ConflictResolution {
  const ourTree = new EditablePageTree(ours.pages);
  const theirTree = new EditablePageTree(theirs.pages);
  let oursSide = ours;
  let theirsSide = theirs;
  const marked = new Map<string, Set<MergeConflictReason>>();
  const items = new Map<string, MergeConflict>();
  const mark = (id: string, reason: MergeConflictReason) => {
    const reasons = marked.get(id);
    if (reasons) reasons.add(reason);
    else marked.set(id, new Set([reason]));
  };

  for (let round = 0; round < MAX_ROUNDS; round++) {
    const merged = mergeRevisionContent(base, oursSide, theirsSide, documents, now);
    if (merged.ok) {
      const content = round > 0 ? { ...merged.content, pages: withUniqueSlugs(merged.content.pages, ourTree, mark) } : merged.content;
      return {
        ok: true,
        content,
        newDocuments: merged.newDocuments,
        pages: [...marked].map(([id, reasons]) => ({ id, reasons: [...reasons].sort() })).sort((a, b) => (a.id < b.id ? -1 : 1)),
        items: [...items.values()],
      };
    }
    let progress = false;
    for (const conflict of merged.conflicts) {
      if (conflict.item !== 'page') {
        items.set(`${conflict.item}\u0000${conflict.id}\u0000${conflict.reason}`, conflict);
        const next = settleItem(conflict, oursSide, theirsSide);
        oursSide = next.ours;
        theirsSide = next.theirs;
        progress = true;
        continue;
      }
      mark(conflict.id, conflict.reason);
      if (conflict.reason === 'slug' && !ourTree.has(conflict.id)) {
        theirTree.setSlug(conflict.id, freeSlug(theirTree.fields(conflict.id)!.slug, conflict.id, theirTree, ourTree));
      } else if (ourTree.has(conflict.id)) {
        copyPage(conflict.id, ourTree, theirTree, mark);
      } else {
        copyPage(conflict.id, theirTree, ourTree, mark);
      }
      progress = true;
    }
    if (!progress) return { ok: false, conflicts: merged.conflicts };
    oursSide = { ...oursSide, pages: ourTree.toNodes() };
    theirsSide = { ...theirsSide, pages: theirTree.toNodes() };
  }
  const last = mergeRevisionContent(base, oursSide, theirsSide, documents, now);
  return last.ok ? { ok: false, conflicts: [] } : { ok: false, conflicts: last.conflicts };
}

/**
 * Copies page `id` (its fields and place) from `from` into `to`. Its parent in `from` must
 * exist in `to` and not lie inside the page there: when it does not, the parent is copied
 * first (and counts as a conflicting page: its place or existence on that side is overridden).
 */
function copyPage(
  id: string,
  from: EditablePageTree,
  to: EditablePageTree,
  mark: (id: string, reason: MergeConflictReason) => void,
  depth = 0,
): void {
  const parent = from.parentOf(id) ?? null;
  if (parent !== null && depth < 10_000 && (!to.has(parent) || to.isWithin(parent, id))) {
    mark(parent, to.has(parent) ? 'parent' : 'deleted-and-modified');
    copyPage(parent, from, to, mark, depth + 1);
  }
  const index = from.children(parent).indexOf(id);
  to.put(id, from.fields(id)!, parent, index);
}

/**
 * Pages copied from one side can meet a sibling of the other side with the same slug (both
 * sides had a valid tree, the mix may not). The page that has the slug in the change request
 * keeps it; the others get a free one and count as conflicting pages.
 */
function withUniqueSlugs(pages: PageNode[], ours: EditablePageTree, mark: (id: string, reason: MergeConflictReason) => void): PageNode[] {
  const tree = new EditablePageTree(pages);
  const parents: Array<string | null> = [null];
  for (let i = 0; i < parents.length; i++) {
    const siblings = tree.children(parents[i]);
    parents.push(...siblings);
    const bySlug = new Map<string, string[]>();
    for (const id of siblings) {
      const slug = tree.fields(id)!.slug;
      bySlug.set(slug, [...(bySlug.get(slug) ?? []), id]);
    }
    for (const [slug, same] of bySlug) {
      if (same.length < 2) continue;
      const keeper = same.find((id) => ours.fields(id)?.slug === slug && ours.parentOf(id) === parents[i]) ?? same[0];
      for (const id of same) {
        if (id === keeper) continue;
        tree.setSlug(id, freeSlug(slug, id, tree, tree));
        mark(id, 'slug');
      }
    }
  }
  return tree.toNodes();
}

/** `slug-2`, `slug-3`... free among the page's siblings on both sides. */
function freeSlug(slug: string, id: string, tree: EditablePageTree, other: EditablePageTree): string {
  const parent = tree.parentOf(id) ?? null;
  const taken = new Set<string>();
  for (const side of [tree, other]) {
    for (const sibling of side.children(parent)) if (sibling !== id) taken.add(side.fields(sibling)!.slug);
  }
  for (let n = 2; ; n++) {
    const candidate = `${slug}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** Makes both sides hold the change request's version of a file, variable or reusable content (or the space's, if the change request deleted it). */
function settleItem(conflict: MergeConflict, ours: RevisionContent, theirs: RevisionContent): { ours: RevisionContent; theirs: RevisionContent } {
  const key = conflict.id;
  if (conflict.item === 'variable') {
    if (key in ours.variables) return { ours, theirs: { ...theirs, variables: { ...theirs.variables, [key]: ours.variables[key] } } };
    return { ours: { ...ours, variables: { ...ours.variables, [key]: theirs.variables[key] } }, theirs };
  }
  const field = conflict.item === 'file' ? 'files' : 'reusableContents';
  const list = <T extends { id: string }>(content: RevisionContent) => content[field] as unknown as T[];
  const replace = <T extends { id: string }>(items: T[], item: T) =>
    items.some((existing) => existing.id === key) ? items.map((existing) => (existing.id === key ? item : existing)) : [...items, item];
  const ourItem = list<{ id: string }>(ours).find((item) => item.id === key);
  if (ourItem) return { ours, theirs: { ...theirs, [field]: replace(list(theirs), ourItem) } };
  const theirItem = list<{ id: string }>(theirs).find((item) => item.id === key)!;
  return { ours: { ...ours, [field]: replace(list(ours), theirItem) }, theirs };
}
