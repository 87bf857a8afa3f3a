import { documentHash } from '../../../content/domain/document-hash';
import type { PageNode, ReusableContent, RevisionContent, RevisionFile } from '../../../content/domain/revision-content';
import { MergeConflict, MergeConflictItem, MergeConflictReason, sortConflicts } from './merge-conflict';
import { mergeSequence } from './sequence-merge';
import { mergeText } from './text-merge';
import { mergeTimestamp, mergeValue, minString, sameValue } from './three-way';
import { MergedPage, PageEntry, PageFields, PageIndex, VALUE_FIELDS, indexPages, pageChanged, pageFields } from './merge-page-index';

export type RevisionMergeResult =
  | {
      ok: true;
      content: RevisionContent;
      /** Documents that the merge wrote (line merges of both sides' edits): hash -> markdown, to store. */
      newDocuments: Map<string, string>;
    }
  | { ok: false; conflicts: MergeConflict[] };

/**
 * Three-way merge of revision contents: `base` is the common ancestor, `ours` and `theirs` the
 * two heads (change request and space, in either order: the result does not depend on it).
 *
 * `documents` maps every document hash of the three contents to its markdown (only those
 * that both sides changed are read). `now` is the time of the merge; timestamps come from the
 * sides (see below), `now` only stands in for an empty `updatedAt`.
 *
 * Pages are matched by id across the tree. Per field (kind, title, slug, emoji, icon,
 * description, hidden, layout, target, parent): a side equal to the base takes the other's
 * value, two different changes conflict. A move is a `parent` change. Documents both sides
 * changed are merged line by line (mergeText); overlapping edits conflict (`content`).
 * - Added by one side: added. Deleted by one side and unchanged by the other: deleted, with
 *   its subtree, except the pages the other side moved out of that subtree (they stay where
 *   the other side put them). Deleted (or deleted with an ancestor) by one side and changed
 *   by the other: `deleted-and-modified`. Added or moved under a deleted page: `parent-deleted`.
 * - Children order: per parent, a diff3 of the id lists (mergeSequence), never a conflict.
 * - Two pages that end up siblings with the same slug, which neither side had: `slug`.
 * - createdAt is kept (two different ones: the older); updatedAt is the newer of the sides
 *   that changed it.
 * Files (by id), variables (by key) and reusable contents (by id) follow the same per-item
 * rules; a file's bytes (storageKey, size, contentType, dimensions) are one value (`content`).
 *
 * Pure and deterministic; identical inputs give equal results. Throws only for invalid input
 * (a document hash missing from `documents` where a line merge needs it).
 */
export function mergeRevisionContent(
  base: RevisionContent,
  ours: RevisionContent,
  theirs: RevisionContent,
  documents: ReadonlyMap<string, string>,
  now?: string,
): RevisionMergeResult {
  const merge = new Merge(documents, now ?? '');
  const pages = merge.pages(base.pages, ours.pages, theirs.pages);
  const files = merge.keyed<RevisionFile>('file', base.files, ours.files, theirs.files, {
    key: (file) => file.id,
    title: (file) => file.name,
    merge: (b, o, t) => mergeFile(b, o, t),
  });
  const variables = merge.keyed<Variable>(
    'variable',
    variableList(base.variables),
    variableList(ours.variables),
    variableList(theirs.variables),
    {
      key: (variable) => variable.key,
      title: (variable) => variable.key,
      merge: (b, o, t) => {
        const value = mergeValue(b?.value, o.value, t.value);
        return value.ok ? { value: { key: o.key, value: value.value as string } } : { reasons: ['value'] };
      },
    },
  );
  const reusableContents = merge.keyed<ReusableContent>('reusableContent', base.reusableContents, ours.reusableContents, theirs.reusableContents, {
    key: (reusable) => reusable.id,
    title: (reusable) => reusable.title,
    merge: (b, o, t) => {
      const title = mergeValue(b?.title, o.title, t.title);
      const hash = merge.document(b?.documentHash, o.documentHash, t.documentHash);
      const reasons: MergeConflictReason[] = [];
      if (!title.ok) reasons.push('title');
      if (!hash.ok || hash.value === undefined) reasons.push('content');
      if (!title.ok || !hash.ok || hash.value === undefined) return { reasons };
      return { value: { id: o.id, title: title.value as string, documentHash: hash.value } };
    },
  });

  if (merge.conflicts.length > 0) return { ok: false, conflicts: sortConflicts(merge.conflicts) };
  return {
    ok: true,
    content: { pages, files, variables: Object.fromEntries(variables.map((v) => [v.key, v.value])), reusableContents },
    newDocuments: merge.newDocuments,
  };
}

interface Variable {
  key: string;
  value: string;
}

function variableList(variables: Record<string, string>): Variable[] {
  return Object.entries(variables).map(([key, value]) => ({ key, value }));
}

function mergeFile(base: RevisionFile | undefined, ours: RevisionFile, theirs: RevisionFile): KeyedMerge<RevisionFile> {
  const bytes = (file: RevisionFile | undefined) =>
    file && { contentType: file.contentType, size: file.size, dimensions: file.dimensions, storageKey: file.storageKey };
  const name = mergeValue(base?.name, ours.name, theirs.name);
  const content = mergeValue(bytes(base), bytes(ours), bytes(theirs));
  if (!name.ok || !content.ok) {
    const reasons: MergeConflictReason[] = [];
    if (!name.ok) reasons.push('name');
    if (!content.ok) reasons.push('content');
    return { reasons };
  }
  const { contentType, size, dimensions, storageKey } = content.value!;
  return {
    value: {
      id: ours.id,
      name: name.value as string,
      contentType,
      size,
      ...(dimensions === undefined ? {} : { dimensions }),
      storageKey,
    },
  };
}

type KeyedMerge<T> = { value: T } | { reasons: MergeConflictReason[] };

interface KeyedRules<T> {
  key(item: T): string;
  title(item: T): string;
  /** Merges an item both sides have (`base` undefined: both added it). */
  merge(base: T | undefined, ours: T, theirs: T): KeyedMerge<T>;
}

class Merge {
  readonly conflicts: MergeConflict[] = [];
  readonly newDocuments = new Map<string, string>();

  constructor(
    private readonly documents: ReadonlyMap<string, string>,
    private readonly now: string,
  ) {}

  conflict(item: MergeConflictItem, id: string, title: string, reason: MergeConflictReason): void {
    this.conflicts.push({ item, id, title, reason });
  }

  /** Three-way merge of a document reference; both changed: line merge of the texts. */
  document(base: string | undefined, ours: string | undefined, theirs: string | undefined) {
    const value = mergeValue(base, ours, theirs);
    if (value.ok || ours === undefined || theirs === undefined) return value;
    const merged = mergeText(base === undefined ? '' : this.text(base), this.text(ours), this.text(theirs));
    if (!merged.ok) return { ok: false as const };
    const hash = documentHash(merged.text);
    if (!this.documents.has(hash)) this.newDocuments.set(hash, merged.text);
    return { ok: true as const, value: hash as string | undefined };
  }

  private text(hash: string): string {
    const text = this.documents.get(hash);
    if (text === undefined) throw new Error(`mergeRevisionContent: document ${hash} is missing from the documents given`);
    return text;
  }

  pages(baseRoots: PageNode[], oursRoots: PageNode[], theirsRoots: PageNode[]): PageNode[] {
    const base = indexPages(baseRoots);
    const ours = indexPages(oursRoots);
    const theirs = indexPages(theirsRoots);
    const merged = new Map<string, MergedPage>();
    /** Pages whose fate is a conflict: not merged, but not reported again as missing parents. */
    const unresolved = new Set<string>();
    const conflictsBefore = this.conflicts.length;

    const ids = new Set([...base.pages.keys(), ...ours.pages.keys(), ...theirs.pages.keys()]);
    // Where each page would go, as far as the parent field alone says: the merged parent of a
    // page both sides have (the base one if that conflicts), else the parent on the side that has it.
    const tentativeParent = new Map<string, string | null>();
    for (const id of ids) {
      const b = base.pages.get(id);
      const o = ours.pages.get(id);
      const t = theirs.pages.get(id);
      if (o && t) {
        const parent = mergeValue<string | null | undefined>(b?.parent, o.parent, t.parent);
        tentativeParent.set(id, parent.ok ? (parent.value ?? null) : (b?.parent ?? null));
      } else if (o || t) tentativeParent.set(id, (o ?? t)!.parent);
    }

    for (const id of ids) {
      const b = base.pages.get(id);
      const o = ours.pages.get(id);
      const t = theirs.pages.get(id);
      const title = b ? b.node.title : minString(o?.node.title ?? t!.node.title, t?.node.title ?? o!.node.title);
      if (o && t) {
        const page = this.page(id, title, b, o, t);
        if (page) merged.set(id, page);
        else unresolved.add(id);
      } else if (o || t) {
        const kept = (o ?? t)!;
        if (!b) {
          merged.set(id, { fields: pageFields(kept.node), parent: kept.parent });
          continue;
        }
        // Deleted by one side. The deletion's root: the highest page above (or at) this one that
        // the deleting side no longer has, all the way down (in the base tree). The page goes
        // with it unless the merged moves take it out of that subtree.
        const deleter = o ? theirs : ours;
        let root = id;
        for (let step = 0; step <= base.pages.size; step++) {
          const parent = base.pages.get(root)!.parent;
          if (parent === null || deleter.pages.has(parent)) break;
          root = parent;
        }
        let inside = false;
        let at: string | null = id;
        for (let step = 0; at !== null && step <= tentativeParent.size; step++) {
          if (at === root) {
            inside = true;
            break;
          }
          at = tentativeParent.get(at) ?? null;
        }
        if (!inside) merged.set(id, { fields: pageFields(kept.node), parent: kept.parent }); // moved out of the deleted subtree
        else if (pageChanged(b, kept)) {
          this.conflict('page', id, title, 'deleted-and-modified');
          unresolved.add(id);
        }
      }
    }

    // Where the pages end up: under a page that still exists, without cycles, unique slugs.
    for (const [id, page] of merged) {
      if (page.parent !== null && !merged.has(page.parent) && !unresolved.has(page.parent)) {
        this.conflict('page', id, page.fields.title, 'parent-deleted');
      }
    }
    const visited = new Set<string>();
    for (const start of merged.keys()) {
      const path: string[] = [];
      const onPath = new Set<string>();
      let at: string | null = start;
      while (at !== null && merged.has(at) && !visited.has(at)) {
        visited.add(at);
        onPath.add(at);
        path.push(at);
        at = merged.get(at)!.parent;
      }
      if (at !== null && onPath.has(at)) {
        for (const id of path.slice(path.indexOf(at))) this.conflict('page', id, merged.get(id)!.fields.title, 'move-cycle');
      }
    }
    const membersOf = new Map<string | null, string[]>();
    for (const [id, page] of merged) {
      const members = membersOf.get(page.parent);
      if (members) members.push(id);
      else membersOf.set(page.parent, [id]);
    }
    for (const members of membersOf.values()) this.checkSlugs(members, merged, ours, theirs);

    if (this.conflicts.length > conflictsBefore) return [];

    // Children order per parent; a side that does not have the parent keeps the base order.
    const nodes = new Map<string, PageNode>();
    for (const [id, page] of merged) nodes.set(id, { ...page.fields, pages: [] });
    const roots: PageNode[] = [];
    for (const [parent, members] of membersOf) {
      const baseOrder = base.children.get(parent) ?? [];
      const sideOrder = (side: PageIndex) => (parent === null || side.pages.has(parent) ? (side.children.get(parent) ?? []) : baseOrder);
      const memberSet = new Set(members);
      const order = mergeSequence(baseOrder, sideOrder(ours), sideOrder(theirs)).filter((id) => memberSet.has(id));
      if (order.length < members.length) {
        const placed = new Set(order);
        order.push(...members.filter((id) => !placed.has(id)).sort());
      }
      const target = parent === null ? roots : nodes.get(parent)!.pages;
      for (const id of order) target.push(nodes.get(id)!);
    }
    return roots;
  }

  /** A page both sides have; undefined (and conflicts recorded) when it cannot be merged. */
  private page(id: string, title: string, b: PageEntry | undefined, o: PageEntry, t: PageEntry): MergedPage | undefined {
    const fields: Record<string, unknown> = { id };
    const failed: MergeConflictReason[] = [];
    for (const field of VALUE_FIELDS) {
      const value = mergeValue(b?.node[field], o.node[field], t.node[field]);
      if (value.ok) fields[field] = value.value;
      else failed.push(field);
    }
    const parent = mergeValue<string | null | undefined>(b?.parent, o.parent, t.parent);
    if (!parent.ok) failed.push('parent');
    const hash = this.document(b?.node.documentHash, o.node.documentHash, t.node.documentHash);
    if (hash.ok) fields.documentHash = hash.value;
    else failed.push('content');
    for (const reason of failed) this.conflict('page', id, title, reason);
    if (failed.length > 0) return undefined;

    fields.createdAt = mergeTimestamp(b?.node.createdAt, o.node.createdAt, t.node.createdAt, 'min');
    fields.updatedAt = mergeTimestamp(b?.node.updatedAt, o.node.updatedAt, t.node.updatedAt, 'max') || this.now;
    for (const key of Object.keys(fields)) if (fields[key] === undefined) delete fields[key];
    return { fields: fields as unknown as PageFields, parent: (parent as { value: string | null }).value };
  }

  /** Siblings with the same slug conflict, unless one side already had them so. */
  private checkSlugs(members: string[], merged: Map<string, MergedPage>, ours: PageIndex, theirs: PageIndex): void {
    const bySlug = new Map<string, string[]>();
    for (const id of members) {
      const slug = merged.get(id)!.fields.slug;
      const same = bySlug.get(slug);
      if (same) same.push(id);
      else bySlug.set(slug, [id]);
    }
    const hadThem = (side: PageIndex, a: string, b: string) => {
      const pa = side.pages.get(a);
      const pb = side.pages.get(b);
      return !!pa && !!pb && pa.parent === pb.parent && pa.node.slug === pb.node.slug;
    };
    for (const same of bySlug.values()) {
      for (let i = 0; i < same.length; i++) {
        for (let j = i + 1; j < same.length; j++) {
          if (hadThem(ours, same[i], same[j]) || hadThem(theirs, same[i], same[j])) continue;
          this.conflict('page', same[i], merged.get(same[i])!.fields.title, 'slug');
          this.conflict('page', same[j], merged.get(same[j])!.fields.title, 'slug');
        }
      }
    }
  }

  /** Items matched by key, each merged by `rules.merge`; order merged as a list of keys. */
  keyed<T>(item: MergeConflictItem, base: readonly T[], ours: readonly T[], theirs: readonly T[], rules: KeyedRules<T>): T[] {
    const byKey = (items: readonly T[]) => {
      const map = new Map<string, T>();
      for (const value of items) if (!map.has(rules.key(value))) map.set(rules.key(value), value);
      return map;
    };
    const b = byKey(base);
    const o = byKey(ours);
    const t = byKey(theirs);
    const merged = new Map<string, T>();
    for (const key of new Set([...b.keys(), ...o.keys(), ...t.keys()])) {
      const bv = b.get(key);
      const ov = o.get(key);
      const tv = t.get(key);
      const title = bv !== undefined ? rules.title(bv) : minString(rules.title((ov ?? tv)!), rules.title((tv ?? ov)!));
      if (ov !== undefined && tv !== undefined) {
        const result = rules.merge(bv, ov, tv);
        if ('value' in result) merged.set(key, result.value);
        else for (const reason of result.reasons) this.conflict(item, key, title, reason);
      } else if (ov !== undefined || tv !== undefined) {
        const kept = (ov ?? tv)!;
        if (bv === undefined) merged.set(key, kept);
        else if (!sameValue(bv, kept)) this.conflict(item, key, title, 'deleted-and-modified');
      }
    }
    const order = mergeSequence([...b.keys()], [...o.keys()], [...t.keys()]).filter((key) => merged.has(key));
    if (order.length < merged.size) {
      const placed = new Set(order);
      order.push(...[...merged.keys()].filter((key) => !placed.has(key)).sort());
    }
    return order.map((key) => merged.get(key)!);
  }
}
