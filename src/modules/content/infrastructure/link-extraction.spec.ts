import { PageNode, RevisionContent } from '../domain/revision-content';
import { flattenPages, linkContext, pageLinks, relativeTarget, reresolveRelative } from './link-extraction';

const page = (id: string, slug: string, pages: PageNode[] = [], extra: Partial<PageNode> = {}): PageNode => ({
  id,
  kind: 'document',
  title: id,
  slug,
  documentHash: `hash-${id}`,
  createdAt: '',
  updatedAt: '',
  pages,
  ...extra,
});

const tree = [
  page('A', 'guide', [page('B', 'install'), page('C', 'setup')]),
  page('D', 'faq'),
  { ...page('L', 'link', [], { kind: 'link', target: { kind: 'page', page: 'D' } }), documentHash: undefined },
];
const content: RevisionContent = {
  pages: tree,
  files: [{ id: 'F', name: 'f.png', contentType: 'image/png', size: 1, storageKey: 'k' }],
  variables: {},
  reusableContents: [],
};
const entries = flattenPages(tree);
const ctx = linkContext('S', content, entries, 'http://docs.test/app');
const entry = (id: string) => entries.find((e) => e.node.id === id)!;

describe('link extraction', () => {
  it('resolves page, file and URL links and gives each a status', () => {
    const body = [
      '[ok](/pages/D) [gone](/pages/NOPE) [anchor](/pages/D#top) [same](#here)',
      '![img](/files/F) [nofile](/files/G) [ext](https://example.com/x) [app](http://docs.test/app/s/S/faq)',
      '[other space](/spaces/OTHER/pages/Q) [own space](/spaces/S/pages/B)',
    ].join('\n\n');
    const rows = pageLinks(entry('B'), body, ctx);
    expect(rows.map((r) => [r.targetKey, r.status, r.source])).toEqual([
      ['page:D', 'ok', 'link'],
      ['page:NOPE', 'broken', 'link'],
      ['page:D', 'ok', 'link'],
      ['file:F', 'ok', 'image'],
      ['file:G', 'broken', 'link'],
      ['url:https://example.com/x', 'ok', 'link'],
      ['url:http://docs.test/app/s/S/faq', 'in-app', 'link'],
      ['space:OTHER:page:Q', 'ok', 'link'],
      ['page:B', 'ok', 'link'],
    ]);
    expect(rows[2].anchor).toBe('top');
    expect(new Set(rows.map((r) => r.position)).size).toBe(rows.length);
  });

  it('resolves relative .md paths from where the page sits', () => {
    expect(relativeTarget('setup.md', entry('B'))).toEqual({ path: 'guide/setup', anchor: null });
    expect(relativeTarget('../faq.md#q', entry('B'))).toEqual({ path: 'faq', anchor: 'q' });
    expect(relativeTarget('install.md', entry('A'))).toEqual({ path: 'guide/install', anchor: null });
    expect(relativeTarget('/guide/README.md', entry('D'))).toEqual({ path: 'guide', anchor: null });
    expect(relativeTarget('https://x.org/a.md', entry('B'))).toBeNull();
    expect(relativeTarget('plain', entry('B'))).toBeNull();

    const rows = pageLinks(entry('B'), '[s](setup.md) [f](../faq.md#q) [x](missing.md)', ctx);
    expect(rows.map((r) => [r.targetKey, r.status, r.relative, r.anchor])).toEqual([
      ['page:C', 'ok', true, null],
      ['page:D', 'ok', true, 'q'],
      ['path:guide/missing', 'broken', true, null],
    ]);
  });

  it('re-resolves a stored relative link after pages moved', () => {
    const [row] = pageLinks(entry('B'), '[s](setup.md)', ctx);
    const moved = [page('A', 'guide', [page('B', 'install')]), page('C', 'setup')];
    const movedEntries = flattenPages(moved);
    const movedCtx = linkContext('S', { ...content, pages: moved }, movedEntries, 'http://docs.test/app');
    const again = reresolveRelative(row, movedEntries.find((e) => e.node.id === 'B')!, movedCtx);
    expect(again?.targetKey).toBe('path:guide/setup');
    expect(again?.status).toBe('broken');
  });

  it('gives a link page its target as its one link', () => {
    expect(pageLinks(entry('L'), undefined, ctx).map((r) => [r.source, r.targetKey, r.status])).toEqual([['page', 'page:D', 'ok']]);
  });
});
