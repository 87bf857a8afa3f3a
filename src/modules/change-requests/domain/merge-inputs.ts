import type { PageNode, RevisionContent } from '../../content/domain/revision-content';
import type { MergeConflict } from './merge';

/** Document hash of every page (by id, first occurrence) and reusable content of a revision. */
function documentRefs(content: RevisionContent): Map<string, string | undefined> {
  const refs = new Map<string, string | undefined>();
  const stack: PageNode[] = [...content.pages];
  while (stack.length > 0) {
    const page = stack.pop()!;
    const key = `page:${page.id}`;
    if (!refs.has(key)) refs.set(key, page.documentHash);
    stack.push(...page.pages);
  }
  for (const reusable of content.reusableContents) {
    const key = `reusable:${reusable.id}`;
    if (!refs.has(key)) refs.set(key, reusable.documentHash);
  }
  return refs;
}

/**
 * The documents a three-way merge of these contents has to read: those of pages and reusable
 * contents whose document both sides changed, differently (the others merge by reference).
 * Loading only these keeps a merge of a few pages cheap in a space of thousands.
 */
export function documentsToMerge(base: RevisionContent, ours: RevisionContent, theirs: RevisionContent): string[] {
  const b = documentRefs(base);
  const o = documentRefs(ours);
  const t = documentRefs(theirs);
  const needed = new Set<string>();
  for (const [key, ourHash] of o) {
    if (!t.has(key)) continue;
    const theirHash = t.get(key);
    const baseHash = b.get(key);
    if (ourHash === theirHash || ourHash === baseHash || theirHash === baseHash) continue;
    for (const hash of [baseHash, ourHash, theirHash]) if (hash !== undefined) needed.add(hash);
  }
  return [...needed];
}

/** Every document hash the contents reference. */
export function allDocuments(...contents: RevisionContent[]): string[] {
  const hashes = new Set<string>();
  for (const content of contents) for (const hash of documentRefs(content).values()) if (hash !== undefined) hashes.add(hash);
  return [...hashes];
}

const ITEM_LABEL: Record<MergeConflict['item'], string> = {
  page: 'page',
  file: 'file',
  variable: 'variable',
  reusableContent: 'reusable content',
};

/** "page "Intro" (abc): content; file "logo.png" (f1): name" — one entry per item, reasons joined. */
export function describeConflicts(conflicts: readonly MergeConflict[]): string {
  const byItem = new Map<string, { conflict: MergeConflict; reasons: string[] }>();
  for (const conflict of conflicts) {
    const key = `${conflict.item}\u0000${conflict.id}`;
    const entry = byItem.get(key);
    if (entry) entry.reasons.push(conflict.reason);
    else byItem.set(key, { conflict, reasons: [conflict.reason] });
  }
  return [...byItem.values()]
    .map(({ conflict, reasons }) => `${ITEM_LABEL[conflict.item]} "${conflict.title}" (${conflict.id}): ${reasons.join(', ')}`)
    .join('; ');
}
