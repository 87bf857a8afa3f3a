import type { PageNode } from '../../content/domain/revision-content';
import { indexPages, navigationHref } from './page-index';

const at = '2026-01-01T00:00:00.000Z';
const node = (id: string, kind: PageNode['kind'], extra: Partial<PageNode> = {}): PageNode => ({ id, kind, title: id, slug: id, createdAt: at, updatedAt: at, pages: [], ...extra });

describe('navigationHref (sidebar entries)', () => {
  const guide = node('guide', 'document', { pages: [node('setup', 'document')] });
  const links = [
    node('to-page', 'link', { target: { kind: 'page', page: 'setup' } }),
    node('to-heading', 'link', { target: { kind: 'anchor', anchor: 'install now', page: 'setup' } }),
    node('to-web', 'link', { target: { kind: 'url', url: 'https://example.com/x' } }),
    node('to-script', 'link', { target: { kind: 'url', url: ' javascript:alert(1)' } }),
    node('to-data', 'link', { target: { kind: 'url', url: 'data:text/html,<script>1</script>' } }),
    node('to-other-space', 'link', { target: { kind: 'page', page: 'setup', space: 'other' } }),
    node('to-missing', 'link', { target: { kind: 'anchor', anchor: 'x', page: 'gone' } }),
  ];
  const index = indexPages([guide, ...links]);
  const hrefOf = (id: string) => navigationHref(index.byId.get(id)!.node, index, (path) => `/docs/${path}`);

  it('leads documents, page links and heading links to their address', () => {
    expect(hrefOf('setup')).toBe('/docs/guide/setup');
    expect(hrefOf('to-page')).toBe('/docs/guide/setup');
    expect(hrefOf('to-heading')).toBe('/docs/guide/setup#install%20now');
    expect(hrefOf('to-web')).toBe('https://example.com/x');
  });

  it('leads nowhere for script and data addresses, other spaces and missing pages', () => {
    for (const id of ['to-script', 'to-data', 'to-other-space', 'to-missing']) expect([id, hrefOf(id)]).toEqual([id, undefined]);
  });
});
