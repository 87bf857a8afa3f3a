import type { PageNode } from '../../../content/domain/revision-content';
import { PageTree } from './page-tree';

function page(id: string, pages: PageNode[] = []): PageNode {
  return { id, kind: 'document', title: id, slug: id, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', pages };
}

describe('PageTree.pagesAmong', () => {
  const tree = new PageTree([page('a', [page('a1', [page('a1x')])]), page('b'), page('c', [page('c1')])]);

  it('finds pages at any depth, by id, and leaves out ids the tree does not hold', () => {
    const found = tree.pagesAmong(new Set(['a1x', 'c1', 'missing', 'b']));
    expect([...found.keys()].sort()).toEqual(['a1x', 'b', 'c1']);
    expect(found.get('a1x')!.id).toBe('a1x');
  });

  it('finds nothing for no ids', () => {
    expect(tree.pagesAmong(new Set()).size).toBe(0);
  });

  it('stops walking once every id is found', () => {
    const unreachable = page('z');
    Object.defineProperty(unreachable, 'pages', {
      get() {
        throw new Error('walked past the last page asked for');
      },
    });
    const walked = new PageTree([page('a', [page('a1')]), unreachable]);
    expect([...walked.pagesAmong(new Set(['a1'])).keys()]).toEqual(['a1']);
    expect(() => walked.pagesAmong(new Set(['a1', 'nowhere']))).toThrow('walked past');
  });
});

describe('PageTree.entryOf', () => {
  it('gives each page the path entries() gives it, groups adding nothing to their children', () => {
    const group: PageNode = { ...page('g', [page('g1', [page('g1a')])]), kind: 'group', slug: 'section' };
    const tree = new PageTree([page('a', [page('a1')]), group, page('b')]);
    for (const entry of tree.entries()) expect(tree.entryOf(entry.node.id)).toEqual(entry);
    expect(tree.entryOf('g1a')).toMatchObject({ path: 'g1/g1a', parentPath: 'g1' });
    expect(tree.entryOf('missing')).toBeNull();
  });
});
