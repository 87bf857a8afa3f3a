import type { PageNode } from '../../../content/domain/revision-content';
import { linkTargets, pageLinkResolver } from './link-resolution';
import { PageTree } from './page-tree';

function page(id: string, slug: string, pages: PageNode[] = []): PageNode {
  return { id, kind: 'document', title: id, slug, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', pages };
}

describe('linkTargets', () => {
  const tree = new PageTree([page('a', 'guide', [page('a1', 'install')]), page('b', 'faq')]);

  it('resolves links by page id without indexing every path', () => {
    const entries = jest.spyOn(tree, 'entries');
    const resolve = pageLinkResolver(linkTargets(tree, [], new Map(), new Map()), () => tree.entryOf('b')!);
    expect(resolve('/pages/a1')).toEqual({ kind: 'page', page: 'a1' });
    expect(resolve('/pages/a1#setup')).toEqual({ kind: 'anchor', anchor: 'setup', page: 'a1' });
    expect(entries).not.toHaveBeenCalled();
    entries.mockRestore();
  });

  it('indexes paths once a link names a page by path, and resolves relative links from the page', () => {
    const entries = jest.spyOn(tree, 'entries');
    const resolve = pageLinkResolver(linkTargets(tree, [], new Map(), new Map()), () => tree.entryOf('a1')!);
    expect(resolve('/pages/guide/install')).toEqual({ kind: 'page', page: 'a1' });
    expect(resolve('../faq.md')).toEqual({ kind: 'page', page: 'b' });
    expect(resolve('/pages/nowhere')).toBeUndefined();
    expect(entries).toHaveBeenCalledTimes(1);
    entries.mockRestore();
  });
});
