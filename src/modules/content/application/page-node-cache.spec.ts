import { CHUNK_MAX, NodeAddress, PageTreeEncoder, StoredNode, chunkEnds } from '../domain/page-nodes';
import { diffPageTrees } from '../domain/page-tree-diff';
import { pageFacts as facts } from '../domain/page-tree.test-helper';
import { PageNode } from '../domain/revision-content';
import { PageNodeCache } from './page-node-cache';

const page = (id: string, pages: PageNode[] = [], title = `Page ${id}`): PageNode => ({
  id,
  kind: 'document',
  title,
  slug: id,
  documentHash: `doc-${id}-${title}`.padEnd(64, '0'),
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  pages,
});

const flat = (count: number) => Array.from({ length: count }, (_, i) => page(`p${i}`));

/** A store in memory that counts what it is asked for. */
class MemoryStore {
  readonly nodes = new Map<NodeAddress, StoredNode>();
  fetched = 0;
  fetch = async (addresses: NodeAddress[]) => {
    this.fetched += addresses.length;
    return new Map(addresses.filter((a) => this.nodes.has(a)).map((a) => [a, structuredClone(this.nodes.get(a)!)]));
  };
  write(rows: ReadonlyMap<NodeAddress, StoredNode>): number {
    let added = 0;
    for (const [address, node] of rows) {
      if (!this.nodes.has(address)) added++;
      this.nodes.set(address, node);
    }
    return added;
  }
}

const plain = (pages: readonly PageNode[]): unknown => JSON.parse(JSON.stringify(pages));

describe('page trees as shared nodes', () => {
  it('cuts sibling lists by page id: inserting a page changes at most the chunk it lands in', () => {
    const ids = Array.from({ length: 5000 }, (_, i) => `page-${i}`);
    const ends = chunkEnds(ids);
    expect(ends[ends.length - 1]).toBe(ids.length);
    const sizes = ends.map((end, i) => end - (i === 0 ? 0 : ends[i - 1]));
    expect(Math.max(...sizes)).toBeLessThanOrEqual(CHUNK_MAX);
    expect(ends.length).toBeGreaterThan(20); // about one page in 64 ends a chunk

    const encoder = new PageTreeEncoder({ page: () => undefined, list: () => undefined });
    const before = new Set(encoder.list(flat(3000)));
    const inserted = flat(3000);
    inserted.splice(1500, 0, page('new-one'));
    const after = new PageTreeEncoder({ page: () => undefined, list: () => undefined }).list(inserted);
    expect(after.filter((address) => !before.has(address)).length).toBeLessThanOrEqual(2);
  });

  it('round-trips a nested tree, and a second revision fetches and writes only what changed', async () => {
    const store = new MemoryStore();
    const cache = new PageNodeCache(10_000);
    const tree = [page('a', [page('a1'), page('a2', [page('a2x')])]), ...flat(500)];
    const first = new PageTreeEncoder(cache);
    const roots = first.list(tree);
    expect(store.write(first.rows)).toBe(first.rows.size);

    const loaded = await cache.load(roots, store.fetch, true);
    expect(plain(loaded)).toEqual(plain(tree));
    expect(Object.isFrozen(loaded[0]) && Object.isFrozen(loaded[0].pages)).toBe(true);

    // An edit as the content API makes it (a copy of the whole tree) of one nested page.
    const copy = structuredClone(loaded) as PageNode[];
    copy[0].pages[1].pages[0] = { ...copy[0].pages[1].pages[0], title: 'Changed' };
    const second = new PageTreeEncoder(cache, () => new Map(flatten(loaded).map((p) => [p.id, p])));
    const nextRoots = second.list(copy);
    // The page, its two ancestors, and the one chunk at each of the three levels: nothing else is new.
    expect(store.write(second.rows)).toBe(6);
    expect(second.newDocuments).toContain(copy[0].pages[1].pages[0].documentHash);

    store.fetched = 0;
    const next = await cache.load(nextRoots, store.fetch, true);
    expect(plain(next)).toEqual(plain(copy));
    expect(store.fetched).toBe(6);
    // Unchanged pages are the very objects of the first revision.
    expect(next[1]).toBe(loaded[1]);
    expect(next[0].pages[0]).toBe(loaded[0].pages[0]);

    // Committing a tree read from the store again costs no hashing and no rows.
    const again = new PageTreeEncoder(cache);
    expect(again.list(next)).toEqual(nextRoots);
    expect(again.rows.size).toBe(0);
  });

  it('vouches for a committed tree once told (adopt): it is then known, frozen, and costs nothing to commit again', () => {
    const cache = new PageNodeCache(10_000);
    const tree = [page('a', [page('a1')]), ...flat(300)];
    const encoder = new PageTreeEncoder(cache);
    const roots = encoder.list(tree);
    expect(cache.list(tree)).toBeUndefined();
    cache.adopt(encoder);
    expect(cache.list(tree)).toEqual(roots);
    expect(cache.page(tree[0].pages[0])).toBeDefined();
    expect(Object.isFrozen(tree[0]) && Object.isFrozen(tree)).toBe(true);
    const again = new PageTreeEncoder(cache);
    expect(again.list(tree)).toEqual(roots);
    expect(again.rows.size).toBe(0);
  });

  it('does not vouch for what it read inside a transaction (remember: false)', async () => {
    const store = new MemoryStore();
    const cache = new PageNodeCache(10_000);
    const encoder = new PageTreeEncoder(cache);
    const roots = encoder.list(flat(10));
    store.write(encoder.rows);
    const uncommitted = await cache.load(roots, store.fetch, false);
    expect(cache.list(uncommitted)).toBeUndefined();
    expect(cache.page(uncommitted[0])).toBeUndefined();
    store.fetched = 0;
    await cache.load(roots, store.fetch, true);
    expect(store.fetched).toBeGreaterThan(0);
  });

  it('refuses a tree whose nodes are missing, and stays bounded', async () => {
    const store = new MemoryStore();
    await expect(new PageNodeCache(10).load(['nope'], store.fetch, true)).rejects.toThrow(/missing/);
    const cache = new PageNodeCache(3);
    const encoder = new PageTreeEncoder(cache);
    const roots = encoder.list(flat(400));
    store.write(encoder.rows);
    const loaded = await cache.load(roots, store.fetch, true);
    expect(loaded).toHaveLength(400);
    store.fetched = 0;
    await cache.load(roots, store.fetch, true);
    expect(store.fetched).toBeGreaterThan(0); // chunks beyond the bound were evicted
  });
});

function flatten(pages: readonly PageNode[]): PageNode[] {
  return pages.flatMap((p) => [p, ...flatten(p.pages)]);
}

describe('diffing trees read from the store (chunk by chunk)', () => {
  it('finds every change, addition and removal while skipping shared chunks', async () => {
    const store = new MemoryStore();
    const cache = new PageNodeCache(100_000);
    const commit = async (tree: PageNode[]) => {
      const encoder = new PageTreeEncoder(cache);
      const roots = encoder.list(tree);
      store.write(encoder.rows);
      return cache.load(roots, store.fetch, true);
    };
    let before = await commit([...flat(1500), page('parent', flat(300).map((p) => ({ ...p, id: `c${p.id}` })))]);
    let n = 0;
    for (let step = 0; step < 40; step++) {
      const edited = structuredClone(before) as PageNode[];
      const list = step % 3 === 0 ? edited[edited.length - 1].pages : edited;
      const at = (step * 7919) % list.length;
      switch (step % 4) {
        case 0:
          list[at] = { ...list[at], documentHash: `x${n++}`.padEnd(64, '0') };
          break;
        case 1:
          list.splice(at, 0, page(`added${n++}`));
          break;
        case 2:
          list.splice(at, 1);
          break;
        default:
          list[at] = { ...list[at], slug: `renamed${n++}` };
      }
      const after = await commit(edited);
      const change = diffPageTrees(before, after, cache);
      const old = facts(before);
      const now = facts(after);
      const changed = new Set(change.changed.map((p) => p.node.id));
      for (const [id, fact] of now) if (old.get(id) !== fact) expect({ step, id, changed: changed.has(id) }).toEqual({ step, id, changed: true });
      expect(change.removed.sort()).toEqual([...old.keys()].filter((id) => !now.has(id)).sort());
      expect(change.added.sort()).toEqual([...now.keys()].filter((id) => !old.has(id)).sort());
      // Only the chunks around the edit were looked at, not 1,800 pages.
      expect(change.changed.length).toBeLessThan(CHUNK_MAX + 2);
      before = after;
    }
  });
});

