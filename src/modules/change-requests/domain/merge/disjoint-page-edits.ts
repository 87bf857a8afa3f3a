import type { ListSegments } from '../../../content/domain/page-nodes';
import type { PageTreeChange } from '../../../content/domain/page-tree-diff';
import type { PageNode, RevisionContent } from '../../../content/domain/revision-content';

interface Side {
  content: RevisionContent;
  change: PageTreeChange;
}

/**
 * The three-way merge in the case that needs no page-by-page walk: one side only changed the
 * fields of some pages in place (no page added, removed, moved, renamed; files, variables and
 * reusable contents as in the base), and the other side did not touch those pages, their
 * ancestors' places or names. The result is the other side's tree with those pages' fields
 * replaced: what mergeRevisionContent gives for such input (a field changed on one side takes
 * that side's value), found by following the two diffs instead of matching every page.
 * Untouched subtrees stay the very objects of the other side (their stored addresses are known).
 *
 * With `lists`, a long sibling list made of runs (chunks) is rebuilt from the runs, replacing only
 * those holding an edited page, so the result is encoded and compared run by run.
 *
 * Returns null when the case does not apply; the caller then runs mergeRevisionContent.
 */
export function mergeDisjointPageEdits(base: RevisionContent, ours: Side, theirs: Side, lists?: ListSegments): RevisionContent | null {
  const applies = (edits: Side, onto: Side) => {
    const { change } = edits;
    if (change.structural || change.added.length > 0 || change.removed.length > 0) return false;
    if (!sameNonPageContent(base, edits.content)) return false;
    const touched = new Set(onto.change.removed);
    for (const placed of onto.change.changed) touched.add(placed.node.id);
    // A page the other side left alone also kept its place: moving or renaming an ancestor reports the whole subtree.
    return change.changed.every((placed) => !touched.has(placed.node.id));
  };
  for (const [edits, onto] of [
    [theirs, ours],
    [ours, theirs],
  ]) {
    if (!applies(edits, onto)) continue;
    if (edits.change.changed.length === 0) return onto.content;
    const fieldEdits = edits.change.changed.map((placed) => ({
      chain: placed.ancestors.map((a) => a.id),
      page: placed.node,
      // Where to look for each level's page in the other tree: objects both trees may share.
      probes: [...placed.ancestors, edits.change.before.get(placed.node.id)],
    }));
    const pages = replaceFields(onto.content.pages, fieldEdits, 0, lists);
    if (pages) return { ...onto.content, pages };
  }
  return null;
}

interface FieldEdit {
  /** Ids of the page's ancestors, outermost first. */
  chain: string[];
  /** The page with its new fields. */
  page: PageNode;
  /** Per level (ancestors, then the page), an object that may be the other tree's page at that level. */
  probes: Array<PageNode | undefined>;
}

/** The tree with each edited page's own fields replaced (its children kept), copying only the paths down to them. */
function replaceFields(list: readonly PageNode[], edits: FieldEdit[], depth: number, lists?: ListSegments): PageNode[] | null {
  const byKey = new Map<string, FieldEdit[]>();
  for (const edit of edits) {
    const key = edit.chain[depth] ?? edit.page.id;
    const group = byKey.get(key);
    if (group) group.push(edit);
    else byKey.set(key, [edit]);
  }
  const replace = (node: PageNode): PageNode | null => {
    const group = byKey.get(node.id)!;
    const own = group.find((edit) => edit.chain.length === depth);
    const deeper = group.filter((edit) => edit.chain.length > depth);
    const children = deeper.length > 0 ? replaceFields(node.pages, deeper, depth + 1, lists) : node.pages;
    if (!children) return null;
    const { pages: _children, ...fields } = own ? own.page : node;
    return { ...fields, pages: children };
  };

  const segments = lists?.segments(list);
  if (segments) {
    // Where each page is: its run found from an object the two trees share, else by a scan.
    const at = new Map<string, { run: number; index: number }>();
    let runIndex: Map<readonly PageNode[], number> | undefined;
    for (const [id, group] of byKey) {
      const probe = group[0].probes[depth];
      const run = probe && lists!.segmentOf?.(probe);
      if (!run) continue;
      runIndex ??= new Map(segments.map((segment, i) => [segment, i]));
      const r = runIndex.get(run);
      const index = r === undefined ? -1 : run.indexOf(probe);
      if (r !== undefined && index >= 0 && run[index].id === id) at.set(id, { run: r, index });
    }
    for (let r = 0; r < segments.length && at.size < byKey.size; r++) {
      const segment = segments[r];
      for (let index = 0; index < segment.length; index++) if (byKey.has(segment[index].id) && !at.has(segment[index].id)) at.set(segment[index].id, { run: r, index });
    }
    if (at.size < byKey.size) return null;
    const rebuilt = [...segments];
    const copied = new Set<number>();
    for (const [id, { run, index }] of at) {
      const replaced = replace(rebuilt[run][index]);
      if (!replaced || replaced.id !== id) return null;
      if (!copied.has(run)) {
        rebuilt[run] = [...rebuilt[run]];
        copied.add(run);
      }
      (rebuilt[run] as PageNode[])[index] = replaced;
    }
    return lists!.fromSegments(rebuilt);
  }

  const copy = list.slice();
  for (const id of byKey.keys()) {
    const index = copy.findIndex((page) => page.id === id);
    if (index < 0) return null;
    const replaced = replace(copy[index]);
    if (!replaced) return null;
    copy[index] = replaced;
  }
  return copy;
}

function sameNonPageContent(a: RevisionContent, b: RevisionContent): boolean {
  const same = (x: unknown, y: unknown) => x === y || JSON.stringify(x) === JSON.stringify(y);
  return same(a.files, b.files) && same(a.variables, b.variables) && same(a.reusableContents, b.reusableContents);
}
