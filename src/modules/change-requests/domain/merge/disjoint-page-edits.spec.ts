import { diffPageTrees } from '../../../content/domain/page-tree-diff';
import type { PageNode, RevisionContent } from '../../../content/domain/revision-content';
import { mergeDisjointPageEdits } from './disjoint-page-edits';
import { mergeRevisionContent } from './merge-revision-content';
import { seededRandom as random } from '../../../content/domain/page-tree.test-helper';

const page = (id: string, pages: PageNode[] = []): PageNode => ({
  id,
  kind: 'document',
  title: `T ${id}`,
  slug: `s-${id}`,
  documentHash: `h-${id}`,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  pages,
});

function all(pages: PageNode[]): Array<{ list: PageNode[]; index: number }> {
  const out: Array<{ list: PageNode[]; index: number }> = [];
  const visit = (list: PageNode[]) => list.forEach((p, index) => (out.push({ list, index }), visit(p.pages)));
  visit(pages);
  return out;
}

/** Field edits only (what a change request editing page bodies makes). */
function fieldEdits(pages: PageNode[], next: (n: number) => number, stamp: string) {
  const places = all(pages);
  for (let k = 0; k <= next(3); k++) {
    const at = places[next(places.length)];
    const p = at.list[at.index];
    const field = next(3);
    at.list[at.index] = {
      ...p,
      ...(field === 0 ? { documentHash: `h-${stamp}-${k}` } : field === 1 ? { description: `d-${stamp}-${k}` } : { emoji: '1f600' }),
      updatedAt: `2026-02-0${1 + next(8)}T00:00:00.000Z`,
    };
  }
}

/** Any edit: fields, new pages, deletions, moves, renames. */
function anyEdits(pages: PageNode[], next: (n: number) => number, stamp: string) {
  for (let k = 0; k <= next(3); k++) {
    const places = all(pages);
    if (places.length === 0) return;
    const at = places[next(places.length)];
    const p = at.list[at.index];
    switch (next(5)) {
      case 0:
        at.list.splice(next(at.list.length + 1), 0, page(`new-${stamp}-${k}`));
        break;
      case 1:
        at.list.splice(at.index, 1);
        break;
      case 2:
        at.list[at.index] = { ...p, slug: `moved-${stamp}-${k}` };
        break;
      default:
        fieldEdits(pages, next, `${stamp}${k}`);
    }
  }
}

const canonical = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(canonical)
    : value && typeof value === 'object'
      ? Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, canonical(v)]))
      : value;

const content = (pages: PageNode[]): RevisionContent => ({ pages, files: [], variables: { v: '1' }, reusableContents: [] });

describe('mergeDisjointPageEdits', () => {
  it('gives what the full three-way merge gives, whenever it applies (random trees and edits)', () => {
    let applied = 0;
    for (let seed = 1; seed <= 400; seed++) {
      const next = random(seed);
      const tree = Array.from({ length: 3 + next(5) }, (_, i) => page(`p${i}`, Array.from({ length: next(3) }, (_, j) => page(`p${i}-${j}`))));
      const base = content(tree);
      // Sometimes one side is the base itself (the same objects): pages are then found through the objects both share.
      const sharesBase = next(5) === 0;
      const ours = content(sharesBase ? tree : structuredClone(tree));
      const theirs = content(structuredClone(tree));
      if (!sharesBase) (next(2) ? anyEdits : fieldEdits)(ours.pages, next, 'o');
      (next(4) ? fieldEdits : anyEdits)(theirs.pages, next, 't');

      const fast = mergeDisjointPageEdits(
        base,
        { content: ours, change: diffPageTrees(base.pages, ours.pages) },
        { content: theirs, change: diffPageTrees(base.pages, theirs.pages) },
      );
      if (!fast) continue;
      applied++;
      // Run by run (lists made of chunks): the same result.
      const runs = new WeakMap<readonly PageNode[], ReadonlyArray<readonly PageNode[]>>();
      const runOf = new WeakMap<PageNode, readonly PageNode[]>();
      const lists = {
        segments: (list: readonly PageNode[]) => runs.get(list),
        segmentOf: (p: PageNode) => runOf.get(p),
        fromSegments: (segments: ReadonlyArray<readonly PageNode[]>) => {
          const list = segments.flat();
          runs.set(list, segments);
          return list;
        },
      };
      const split = (list: PageNode[]) => {
        const cut = Array.from({ length: Math.ceil(list.length / 2) }, (_, i) => list.slice(i * 2, i * 2 + 2));
        runs.set(list, cut);
        for (const run of cut) for (const p of run) runOf.set(p, run);
        list.forEach((p) => split(p.pages));
      };
      split(ours.pages);
      split(theirs.pages);
      const byRuns = mergeDisjointPageEdits(
        base,
        { content: ours, change: diffPageTrees(base.pages, ours.pages) },
        { content: theirs, change: diffPageTrees(base.pages, theirs.pages) },
        lists,
      );
      expect({ seed, byRuns: canonical(byRuns) }).toEqual({ seed, byRuns: canonical(fast) });
      const hashes = new Set<string>();
      for (const c of [base, ours, theirs]) for (const { list, index } of all(c.pages)) hashes.add(list[index].documentHash!);
      const full = mergeRevisionContent(base, ours, theirs, new Map([...hashes].map((h) => [h, `text ${h}\n`])), '2026-03-01T00:00:00.000Z');
      expect({ seed, ok: full.ok }).toEqual({ seed, ok: true });
      if (full.ok) expect({ seed, merged: canonical(fast) }).toEqual({ seed, merged: canonical(full.content) });
    }
    expect(applied).toBeGreaterThan(100);
  });

  it('declines when both sides changed the same page, or the editing side moved a page', () => {
    const tree = [page('a', [page('a1')]), page('b')];
    const base = content(tree);
    const edit = (pages: PageNode[], id: string, fields: Partial<PageNode>) => {
      const copy = structuredClone(pages);
      const found = all(copy).find(({ list, index }) => list[index].id === id)!;
      found.list[found.index] = { ...found.list[found.index], ...fields };
      return copy;
    };
    const side = (pages: PageNode[]) => ({ content: content(pages), change: diffPageTrees(base.pages, pages) });
    expect(mergeDisjointPageEdits(base, side(edit(tree, 'a1', { documentHash: 'x' })), side(edit(tree, 'a1', { documentHash: 'y' })))).toBeNull();
    expect(mergeDisjointPageEdits(base, side(edit(tree, 'a', { slug: 'renamed' })), side(edit(tree, 'a1', { documentHash: 'y' })))).toBeNull();
    const merged = mergeDisjointPageEdits(base, side(edit(tree, 'b', { documentHash: 'x' })), side(edit(tree, 'a1', { documentHash: 'y' })));
    expect(merged?.pages.map((p) => [p.documentHash, p.pages.map((c) => c.documentHash)])).toEqual([
      ['h-a', ['y']],
      ['x', []],
    ]);
  });
});
