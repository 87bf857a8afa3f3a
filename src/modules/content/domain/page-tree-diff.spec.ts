import { diffPageTrees } from './page-tree-diff';
import { PageNode } from './revision-content';
import { pageFacts as facts, seededRandom as random } from './page-tree.test-helper';

const node = (id: string, pages: PageNode[] = [], kind: PageNode['kind'] = 'document'): PageNode => ({
  id,
  kind,
  title: `T ${id}`,
  slug: `s-${id}`,
  documentHash: kind === 'document' ? `h-${id}` : undefined,
  createdAt: 'c',
  updatedAt: 'u',
  pages,
});

/** Copies only the path down to what changes (as trees read from the store share the rest). */
function edit(tree: PageNode[], next: (n: number) => number, counter: { n: number }): PageNode[] {
  const all: Array<{ list: PageNode[]; index: number }> = [];
  const collect = (list: PageNode[]) => list.forEach((page, index) => (all.push({ list, index }), collect(page.pages)));
  const copy = (list: PageNode[]): PageNode[] => list.map((page) => ({ ...page, pages: copy(page.pages) }));
  const result = next(2) === 0 ? copy(tree) : tree.map((page) => page); // sometimes a full copy, sometimes shared
  collect(result);
  if (all.length === 0) return [node(`n${counter.n++}`)];
  const at = all[next(all.length)];
  const page = at.list[at.index];
  switch (next(6)) {
    case 0:
      at.list[at.index] = { ...page, documentHash: `h-${counter.n++}` };
      break;
    case 1:
      at.list[at.index] = { ...page, title: `T ${counter.n++}` };
      break;
    case 2:
      at.list[at.index] = { ...page, slug: `s-${counter.n++}` };
      break;
    case 3:
      at.list.splice(next(at.list.length + 1), 0, node(`n${counter.n++}`, [node(`n${counter.n++}`)], next(3) === 0 ? 'group' : 'document'));
      break;
    case 4:
      at.list.splice(at.index, 1);
      break;
    default: {
      at.list.splice(at.index, 1);
      const target = all[next(all.length)];
      const into = target.list === at.list || isInside(page, target.list) ? result : target.list;
      into.splice(next(into.length + 1), 0, page);
    }
  }
  return result;
}

function isInside(page: PageNode, list: PageNode[]): boolean {
  const within = (nodes: PageNode[]): boolean => nodes === list || nodes.some((n) => within(n.pages));
  return within(page.pages);
}

describe('diffPageTrees', () => {
  it('names every page whose fields, path or ancestors changed, and exactly what was added and removed (random edits)', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const next = random(seed);
      const counter = { n: 0 };
      let before: PageNode[] = [node('a', [node('a1'), node('a2', [node('a2x')])]), node('g', [node('g1')], 'group'), node('b')];
      for (let step = 0; step < 8; step++) {
        // Edits mutate lists in place: the old tree is a deep copy, as a stored revision would be.
        const after = edit(structuredClone(before), next, counter);
        const change = diffPageTrees(before, after);
        const old = facts(before);
        const now = facts(after);
        const changed = new Set(change.changed.map((placed) => placed.node.id));
        for (const [id, fact] of now) if (old.get(id) !== fact) expect({ seed, step, id, changed: changed.has(id) }).toEqual({ seed, step, id, changed: true });
        for (const placed of change.changed) expect(now.has(placed.node.id)).toBe(true);
        expect({ seed, step, removed: change.removed.sort() }).toEqual({ seed, step, removed: [...old.keys()].filter((id) => !now.has(id)).sort() });
        expect({ seed, step, added: change.added.sort() }).toEqual({ seed, step, added: [...now.keys()].filter((id) => !old.has(id)).sort() });
        const placedPaths = new Map(change.changed.map((p) => [p.node.id, p.path]));
        for (const [id, path] of placedPaths) expect(JSON.parse(now.get(id)!)[1]).toBe(path);
        before = after;
      }
    }
  });

  it('visits nothing below a shared subtree, and reports an in-place edit alone', () => {
    const big = Array.from({ length: 1000 }, (_, i) => node(`p${i}`, [node(`p${i}c`)]));
    const after = big.map((page) => page);
    after[500] = { ...big[500], documentHash: 'new' };
    const change = diffPageTrees(big, after);
    expect(change.changed.map((p) => p.node.id)).toEqual(['p500']);
    expect(change).toMatchObject({ added: [], removed: [], structural: false });
  });
});
