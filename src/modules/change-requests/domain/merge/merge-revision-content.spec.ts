import { documentHash } from '../../../content/domain/document-hash';
import type { PageNode, RevisionContent, RevisionFile } from '../../../content/domain/revision-content';
import type { MergeConflict } from './merge-conflict';
import { mergeRevisionContent, RevisionMergeResult } from './merge-revision-content';

const T0 = '2024-01-01T00:00:00.000Z';
const T1 = '2024-02-01T00:00:00.000Z';
const T2 = '2024-03-01T00:00:00.000Z';
const NOW = '2024-04-01T00:00:00.000Z';

/** Documents of a test: markdown registered by hash. */
const documents = new Map<string, string>();
function md(...lines: string[]): string {
  const text = lines.join('\n') + '\n';
  const hash = documentHash(text);
  documents.set(hash, text);
  return hash;
}
const BODY = md('# Intro', '', 'one', 'two', 'three', 'four', 'five', 'six');

function page(id: string, fields: Partial<PageNode> = {}, pages: PageNode[] = []): PageNode {
  return { id, kind: 'document', title: `Page ${id}`, slug: id, documentHash: BODY, createdAt: T0, updatedAt: T0, pages, ...fields };
}
function content(pages: PageNode[], rest: Partial<RevisionContent> = {}): RevisionContent {
  return { pages, files: [], variables: {}, reusableContents: [], ...rest };
}

/** The same tree with one page replaced (found by id anywhere). */
function edit(tree: PageNode[], id: string, change: (node: PageNode) => PageNode | null): PageNode[] {
  return tree.flatMap((node) => {
    if (node.id === id) {
      const changed = change(node);
      return changed ? [changed] : [];
    }
    return [{ ...node, pages: edit(node.pages, id, change) }];
  });
}
function find(tree: PageNode[], id: string): PageNode | undefined {
  for (const node of tree) {
    if (node.id === id) return node;
    const inner = find(node.pages, id);
    if (inner) return inner;
  }
  return undefined;
}
/** Parent -> ordered child ids, "/" for the top level: the shape of a tree at a glance. */
function shape(tree: PageNode[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const walk = (nodes: PageNode[], parent: string) => {
    out[parent] = nodes.map((node) => node.id);
    for (const node of nodes) if (node.pages.length > 0) walk(node.pages, node.id);
  };
  walk(tree, '/');
  return out;
}

/** Merges both ways round, checks they agree, returns the result. */
function merge(base: RevisionContent, ours: RevisionContent, theirs: RevisionContent): RevisionMergeResult {
  const forward = mergeRevisionContent(base, ours, theirs, documents, NOW);
  const backward = mergeRevisionContent(base, theirs, ours, documents, NOW);
  expect(backward).toEqual(forward);
  return forward;
}
function merged(base: RevisionContent, ours: RevisionContent, theirs: RevisionContent): RevisionContent {
  const result = merge(base, ours, theirs);
  if (!result.ok) throw new Error(`unexpected conflicts: ${JSON.stringify(result.conflicts)}`);
  return result.content;
}
function conflicts(base: RevisionContent, ours: RevisionContent, theirs: RevisionContent): Array<Partial<MergeConflict>> {
  const result = merge(base, ours, theirs);
  if (result.ok) throw new Error('expected conflicts');
  return result.conflicts;
}

// p1 (with children c1, c2 and c1's child g1), p2, p3 at the top level.
const tree = [page('p1', {}, [page('c1', {}, [page('g1')]), page('c2')]), page('p2'), page('p3')];
const base = content(tree);

describe('mergeRevisionContent: pages', () => {
  it('returns the content unchanged when nothing changed, and either side when only it changed', () => {
    expect(merge(base, base, base)).toEqual({ ok: true, content: base, newDocuments: new Map() });
    const ours = content(edit(tree, 'p2', (p) => ({ ...p, title: 'Two', updatedAt: T1 })));
    expect(merged(base, ours, base)).toEqual(ours);
  });

  it('merges changes of different fields of one page', () => {
    const ours = content(edit(tree, 'p2', (p) => ({ ...p, title: 'Two', updatedAt: T1 })));
    const theirs = content(edit(tree, 'p2', (p) => ({ ...p, emoji: '1f600', hidden: true, layout: { cover: true }, updatedAt: T2 })));
    expect(find(merged(base, ours, theirs).pages, 'p2')).toEqual(
      page('p2', { title: 'Two', emoji: '1f600', hidden: true, layout: { cover: true }, updatedAt: T2 }),
    );
  });

  it('accepts the same change on both sides and conflicts on different changes of one field', () => {
    const ours = content(edit(tree, 'p2', (p) => ({ ...p, title: 'Two' })));
    expect(merged(base, ours, content(edit(tree, 'p2', (p) => ({ ...p, title: 'Two' }))))).toEqual(ours);
    expect(conflicts(base, ours, content(edit(tree, 'p2', (p) => ({ ...p, title: 'Deux' }))))).toEqual([
      { item: 'page', id: 'p2', title: 'Page p2', reason: 'title' },
    ]);
  });

  it.each([
    ['slug', 'a', 'b'],
    ['emoji', '1f600', '1f601'],
    ['icon', 'book', 'star'],
    ['description', 'x', 'y'],
    ['hidden', true, false],
    ['layout', { cover: true }, { cover: false }],
    ['kind', 'group', 'link'],
    ['target', { kind: 'url', url: 'https://a' }, { kind: 'url', url: 'https://b' }],
  ] as const)('names the field %s when both sides change it differently', (field, a, b) => {
    const withField = (value: unknown) => content(edit(tree, 'p3', (p) => ({ ...p, [field]: value })));
    expect(conflicts(base, withField(a), withField(b))).toEqual([{ item: 'page', id: 'p3', title: 'Page p3', reason: field }]);
  });

  it('compares layout and target by value, not by key order', () => {
    const ours = content(edit(tree, 'p3', (p) => ({ ...p, layout: { a: 1, b: 2 } })));
    const theirs = content(edit(tree, 'p3', (p) => ({ ...p, layout: { b: 2, a: 1 } })));
    expect(merge(base, ours, theirs).ok).toBe(true);
  });

  describe('documents', () => {
    it('merges edits of separate lines into a new document', () => {
      const ours = content(edit(tree, 'p2', (p) => ({ ...p, documentHash: md('# Intro', '', 'ONE', 'two', 'three', 'four', 'five', 'six'), updatedAt: T1 })));
      const theirs = content(edit(tree, 'p2', (p) => ({ ...p, documentHash: md('# Intro', '', 'one', 'two', 'three', 'four', 'five', 'SIX'), updatedAt: T2 })));
      const text = '# Intro\n\nONE\ntwo\nthree\nfour\nfive\nSIX\n';
      const result = merge(base, ours, theirs);
      expect(result).toEqual({ ok: true, content: content(edit(tree, 'p2', (p) => ({ ...p, documentHash: documentHash(text), updatedAt: T2 }))), newDocuments: new Map([[documentHash(text), text]]) });
    });

    it('conflicts on edits of the same lines, naming the page', () => {
      const ours = content(edit(tree, 'c2', (p) => ({ ...p, documentHash: md('# Intro', '', 'one', 'ours', 'three', 'four', 'five', 'six') })));
      const theirs = content(edit(tree, 'c2', (p) => ({ ...p, documentHash: md('# Intro', '', 'one', 'theirs', 'three', 'four', 'five', 'six') })));
      expect(conflicts(base, ours, theirs)).toEqual([{ item: 'page', id: 'c2', title: 'Page c2', reason: 'content' }]);
    });

    it('conflicts when one side removes the document (kind change) and the other edits it', () => {
      const ours = content(edit(tree, 'p2', ({ documentHash: _drop, ...p }) => ({ ...p, kind: 'group' })));
      const theirs = content(edit(tree, 'p2', (p) => ({ ...p, documentHash: md('changed') })));
      expect(conflicts(base, ours, theirs)).toEqual([{ item: 'page', id: 'p2', title: 'Page p2', reason: 'content' }]);
    });

    it('only reads documents that both sides changed, and throws on a missing one', () => {
      const ours = content(edit(tree, 'p2', (p) => ({ ...p, documentHash: 'unknown-1' })));
      expect(mergeRevisionContent(base, ours, base, new Map(), NOW).ok).toBe(true);
      const theirs = content(edit(tree, 'p2', (p) => ({ ...p, documentHash: 'unknown-2' })));
      expect(() => mergeRevisionContent(base, ours, theirs, documents, NOW)).toThrow(/document unknown-1 is missing/);
    });
  });

  describe('additions', () => {
    it('adds pages added by either side at their place', () => {
      const ours = content(edit(tree, 'p1', (p) => ({ ...p, pages: [page('n1'), ...p.pages] })));
      const theirs = content([...tree, page('n2')]);
      expect(shape(merged(base, ours, theirs).pages)).toEqual({ '/': ['p1', 'p2', 'p3', 'n2'], p1: ['n1', 'c1', 'c2'], c1: ['g1'] });
    });

    it('orders pages both sides added at the same place deterministically', () => {
      const ours = content([page('p1', {}, tree[0].pages), page('zz'), page('z2'), page('p2'), page('p3')]);
      const theirs = content([page('p1', {}, tree[0].pages), page('aa'), page('p2'), page('p3')]);
      expect(shape(merged(base, ours, theirs).pages)['/']).toEqual(['p1', 'aa', 'zz', 'z2', 'p2', 'p3']);
    });

    it('conflicts when both sides add a page with the same slug under the same parent', () => {
      const ours = content([...tree, page('n1', { slug: 'guide' })]);
      const theirs = content([...tree, page('n2', { slug: 'guide' })]);
      expect(conflicts(base, ours, theirs)).toEqual([
        { item: 'page', id: 'n1', title: 'Page n1', reason: 'slug' },
        { item: 'page', id: 'n2', title: 'Page n2', reason: 'slug' },
      ]);
      expect(merge(base, ours, content([...tree, page('n2', { slug: 'other' })])).ok).toBe(true);
      expect(merge(base, ours, content(edit(tree, 'p1', (p) => ({ ...p, pages: [...p.pages, page('n2', { slug: 'guide' })] })))).ok).toBe(true);
    });

    it('conflicts when a renamed slug meets a page added by the other side', () => {
      const ours = content(edit(tree, 'p3', (p) => ({ ...p, slug: 'guide' })));
      const theirs = content([...tree, page('n2', { slug: 'guide' })]);
      expect(conflicts(base, ours, theirs).map((c) => [c.id, c.reason])).toEqual([
        ['n2', 'slug'],
        ['p3', 'slug'],
      ]);
    });

    it('merges a page both sides added identically, and conflicts where they differ', () => {
      const ours = content([...tree, page('n1', { title: 'New' })]);
      expect(merged(base, ours, ours)).toEqual(ours);
      expect(conflicts(base, ours, content([...tree, page('n1', { title: 'Neu' })]))).toEqual([{ item: 'page', id: 'n1', title: 'Neu', reason: 'title' }]);
    });
  });

  describe('deletions', () => {
    it('deletes a page (with its subtree) that the other side did not change', () => {
      const ours = content(edit(tree, 'p1', () => null));
      const theirs = content(edit(tree, 'p3', (p) => ({ ...p, title: 'Three' })));
      expect(merged(base, ours, theirs).pages).toEqual([page('p2'), page('p3', { title: 'Three' })]);
    });

    it('deletes a page whose siblings the other side reordered', () => {
      const ours = content(edit(tree, 'p2', () => null));
      const theirs = content([tree[2], tree[1], tree[0]]);
      expect(shape(merged(base, ours, theirs).pages)['/']).toEqual(['p3', 'p1']);
    });

    it('conflicts when one side deletes a page that the other changed', () => {
      const ours = content(edit(tree, 'p2', () => null));
      const theirs = content(edit(tree, 'p2', (p) => ({ ...p, title: 'Two' })));
      expect(conflicts(base, ours, theirs)).toEqual([{ item: 'page', id: 'p2', title: 'Page p2', reason: 'deleted-and-modified' }]);
    });

    it('conflicts when one side deletes a page that the other moved', () => {
      const ours = content(edit(tree, 'p2', () => null));
      const theirs = content([page('p1', {}, [...tree[0].pages, page('p2')]), page('p3')]);
      expect(conflicts(base, ours, theirs)).toEqual([{ item: 'page', id: 'p2', title: 'Page p2', reason: 'deleted-and-modified' }]);
    });

    it('conflicts when one side deletes a page and the other changed a page of its subtree in place', () => {
      const ours = content(edit(tree, 'p1', () => null));
      const theirs = content(edit(tree, 'g1', (p) => ({ ...p, documentHash: md('new body') })));
      expect(conflicts(base, ours, theirs)).toEqual([{ item: 'page', id: 'g1', title: 'Page g1', reason: 'deleted-and-modified' }]);
    });

    it('keeps the pages that the other side moved out of a deleted subtree, at their new place', () => {
      const ours = content(edit(tree, 'p1', () => null));
      // theirs moves c1 (with g1) to the top level, after p2, and retitles it
      const c1 = find(tree, 'c1')!;
      const theirs = content([page('p1', {}, [page('c2')]), page('p2'), { ...c1, title: 'Moved', updatedAt: T1 }, page('p3')]);
      const result = merged(base, ours, theirs);
      expect(shape(result.pages)).toEqual({ '/': ['p2', 'c1', 'p3'], c1: ['g1'] });
      expect(find(result.pages, 'c1')!.title).toBe('Moved');
    });

    it('keeps a page moved under a page that the other side moved out before deleting the old parent', () => {
      // ours moves g1 under c2; theirs moves c2 to the top level, then deletes p1 (with c1)
      const ours = content([page('p1', {}, [page('c1'), page('c2', {}, [page('g1')])]), page('p2'), page('p3')]);
      const theirs = content([page('c2'), page('p2'), page('p3')]);
      expect(shape(merged(base, ours, theirs).pages)).toEqual({ '/': ['c2', 'p2', 'p3'], c2: ['g1'] });
      // whereas a page moved inside the deleted subtree goes with it: deleted, and changed
      const inside = content([page('p1', {}, [page('c1'), page('c2', {}, [page('g1')])]), page('p2'), page('p3')]);
      expect(conflicts(base, inside, content(edit(tree, 'p1', () => null)))).toEqual([
        { item: 'page', id: 'g1', title: 'Page g1', reason: 'deleted-and-modified' },
      ]);
    });

    it('conflicts when a page is added or moved under a page that the other side deleted', () => {
      const ours = content(edit(tree, 'p3', () => null));
      const added = content(edit(tree, 'p3', (p) => ({ ...p, pages: [page('n1')] })));
      expect(conflicts(base, ours, added)).toEqual([{ item: 'page', id: 'n1', title: 'Page n1', reason: 'parent-deleted' }]);
      const moved = content([tree[0], page('p3', {}, [page('p2')])]);
      expect(conflicts(base, ours, moved)).toEqual([{ item: 'page', id: 'p2', title: 'Page p2', reason: 'parent-deleted' }]);
    });

    it('deletes a page both sides deleted', () => {
      const ours = content(edit(tree, 'c1', () => null));
      const theirs = content(edit(edit(tree, 'c1', () => null), 'p2', (p) => ({ ...p, title: 'Two' })));
      expect(merged(base, ours, theirs)).toEqual(theirs);
    });
  });

  describe('moves', () => {
    it('treats a move as a change of the parent field, merged with other field changes', () => {
      // ours moves p3 under c2; theirs retitles p3
      const ours = content(edit(tree.slice(0, 2), 'c2', (p) => ({ ...p, pages: [page('p3')] })));
      const theirs = content(edit(tree, 'p3', (p) => ({ ...p, title: 'Three', updatedAt: T2 })));
      const result = merged(base, ours, theirs);
      expect(shape(result.pages)).toEqual({ '/': ['p1', 'p2'], p1: ['c1', 'c2'], c1: ['g1'], c2: ['p3'] });
      expect(find(result.pages, 'p3')).toEqual(page('p3', { title: 'Three', updatedAt: T2 }));
    });

    it('conflicts when both sides move a page to different parents, and merges the same move', () => {
      const underP2 = content([tree[0], page('p2', {}, [page('p3')])]);
      const underC2 = content(edit(tree.slice(0, 2), 'c2', (p) => ({ ...p, pages: [page('p3')] })));
      expect(conflicts(base, underP2, underC2)).toEqual([{ item: 'page', id: 'p3', title: 'Page p3', reason: 'parent' }]);
      expect(merged(base, underP2, underP2)).toEqual(underP2);
    });

    it('conflicts when the two sides’ moves would put a page inside itself', () => {
      const ours = content([page('p1', {}, [...tree[0].pages, page('p2')]), page('p3')]); // p2 under p1
      const theirs = content([page('p2', {}, [tree[0]]), page('p3')]); // p1 under p2
      expect(conflicts(base, ours, theirs).map((c) => [c.id, c.reason])).toEqual([
        ['p1', 'move-cycle'],
        ['p2', 'move-cycle'],
      ]);
    });

    it('merges a reorder on one side with an insertion on the other', () => {
      const ours = content([tree[2], tree[0], tree[1]]);
      const theirs = content([tree[0], page('n1'), tree[1], tree[2]]);
      expect(shape(merged(base, ours, theirs).pages)['/']).toEqual(['p3', 'p1', 'n1', 'p2']);
    });
  });

  describe('timestamps', () => {
    it('keeps createdAt and takes the newest updatedAt of the sides that changed the page', () => {
      const ours = content(edit(tree, 'p2', (p) => ({ ...p, title: 'Two', updatedAt: T2 })));
      const theirs = content(edit(tree, 'p2', (p) => ({ ...p, emoji: '1f600', updatedAt: T1 })));
      expect(find(merged(base, ours, theirs).pages, 'p2')).toEqual(page('p2', { title: 'Two', emoji: '1f600', updatedAt: T2 }));
      const onlyTheirs = content(edit(tree, 'p3', (p) => ({ ...p, emoji: '1f600', updatedAt: T1 })));
      expect(find(merged(base, ours, onlyTheirs).pages, 'p3')!.updatedAt).toBe(T1);
      expect(find(merged(base, ours, onlyTheirs).pages, 'p2')!.updatedAt).toBe(T2);
    });
  });

  it('accepts ids, slugs and keys that are JavaScript property names', () => {
    const weird = content([page('constructor', { slug: '__proto__' }), page('__proto__', { slug: 'constructor' })], { variables: { ['__proto__']: 'x' } });
    const ours = content([page('__proto__', { slug: 'constructor' }), page('constructor', { slug: '__proto__' }), page('toString')], {
      variables: Object.fromEntries([['__proto__', 'y']]),
    });
    const result = merged(weird, ours, weird);
    expect(shape(result.pages)['/']).toEqual(['__proto__', 'constructor', 'toString']);
    expect(Object.getOwnPropertyDescriptor(result.variables, '__proto__')?.value).toBe('y');
  });

  it('does not modify its inputs', () => {
    const freeze = <T>(value: T): T => {
      if (value && typeof value === 'object') {
        for (const inner of Object.values(value)) freeze(inner);
        Object.freeze(value);
      }
      return value;
    };
    const ours = freeze(content(edit(tree, 'p1', () => null)));
    const theirs = freeze(content([...tree, page('n1')]));
    const snapshot = JSON.stringify([base, ours, theirs]);
    expect(() => merged(freeze(base), ours, theirs)).not.toThrow();
    expect(JSON.stringify([base, ours, theirs])).toBe(snapshot);
  });
});

describe('mergeRevisionContent: files, variables and reusable contents', () => {
  const file = (id: string, fields: Partial<RevisionFile> = {}): RevisionFile => ({
    id,
    name: `${id}.png`,
    contentType: 'image/png',
    size: 10,
    storageKey: `key-${id}`,
    ...fields,
  });
  const files = [file('f1'), file('f2'), file('f3')];
  const base = content([], { files, variables: { a: '1', b: '2' }, reusableContents: [{ id: 'r1', title: 'Snippet', documentHash: BODY }] });
  const withFiles = (list: RevisionFile[]) => ({ ...base, files: list });

  it('merges a rename with a replacement of the bytes, additions and deletions', () => {
    const ours = withFiles([file('f1', { name: 'logo.png' }), file('f2'), file('f4')]);
    const theirs = withFiles([file('f1', { storageKey: 'key-new', size: 20, contentType: 'image/jpeg', dimensions: { width: 1, height: 2 } }), file('f3')]);
    expect(merged(base, ours, theirs).files).toEqual([
      file('f1', { name: 'logo.png', storageKey: 'key-new', size: 20, contentType: 'image/jpeg', dimensions: { width: 1, height: 2 } }),
      file('f4'),
    ]);
  });

  it('names conflicting file changes', () => {
    expect(conflicts(base, withFiles([file('f1', { name: 'a.png' }), file('f2'), file('f3')]), withFiles([file('f1', { name: 'b.png' }), file('f2'), file('f3')]))).toEqual([
      { item: 'file', id: 'f1', title: 'f1.png', reason: 'name' },
    ]);
    expect(conflicts(base, withFiles([file('f1', { storageKey: 'x' }), file('f2'), file('f3')]), withFiles([file('f1', { storageKey: 'y' }), file('f2'), file('f3')]))).toEqual([
      { item: 'file', id: 'f1', title: 'f1.png', reason: 'content' },
    ]);
    expect(conflicts(base, withFiles([file('f2'), file('f3')]), withFiles([file('f1', { name: 'b.png' }), file('f2'), file('f3')]))).toEqual([
      { item: 'file', id: 'f1', title: 'f1.png', reason: 'deleted-and-modified' },
    ]);
  });

  it('merges variables by key', () => {
    const ours = { ...base, variables: { a: '10', b: '2', c: '3' } };
    const theirs = { ...base, variables: { a: '1', d: '4' } };
    expect(merged(base, ours, theirs).variables).toEqual({ a: '10', c: '3', d: '4' });
    expect(conflicts(base, { ...base, variables: { a: 'x', b: '2' } }, { ...base, variables: { a: 'y', b: '2' } })).toEqual([
      { item: 'variable', id: 'a', title: 'a', reason: 'value' },
    ]);
    expect(conflicts(base, { ...base, variables: { b: '2' } }, { ...base, variables: { a: 'y', b: '2' } })).toEqual([
      { item: 'variable', id: 'a', title: 'a', reason: 'deleted-and-modified' },
    ]);
  });

  it('merges reusable contents like pages: title and document line by line', () => {
    const ours = { ...base, reusableContents: [{ id: 'r1', title: 'Shared', documentHash: md('# Intro', '', 'ONE', 'two', 'three', 'four', 'five', 'six') }] };
    const theirs = { ...base, reusableContents: [{ id: 'r1', title: 'Snippet', documentHash: md('# Intro', '', 'one', 'two', 'three', 'four', 'five', 'SIX') }] };
    const text = '# Intro\n\nONE\ntwo\nthree\nfour\nfive\nSIX\n';
    const result = merge(base, ours, theirs);
    expect(result).toEqual({
      ok: true,
      content: { ...base, reusableContents: [{ id: 'r1', title: 'Shared', documentHash: documentHash(text) }] },
      newDocuments: new Map([[documentHash(text), text]]),
    });
    const clash = { ...base, reusableContents: [{ id: 'r1', title: 'Other', documentHash: md('# Intro', '', 'uno', 'two', 'three', 'four', 'five', 'six') }] };
    expect(conflicts(base, ours, clash)).toEqual([
      { item: 'reusableContent', id: 'r1', title: 'Snippet', reason: 'content' },
      { item: 'reusableContent', id: 'r1', title: 'Snippet', reason: 'title' },
    ]);
  });

  it('reports the conflicts of every kind of item at once', () => {
    const ours = content([page('p1', { title: 'A' })], { variables: { a: 'x' } });
    const theirs = content([page('p1', { title: 'B' })], { variables: { a: 'y' } });
    const start = content([page('p1')], { variables: { a: '1' } });
    expect(conflicts(start, ours, theirs).map((c) => c.item)).toEqual(['page', 'variable']);
  });
});
