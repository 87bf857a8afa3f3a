import { CrawlScope, parentIndexes } from './crawl-scope';

describe('CrawlScope', () => {
  const scope = new CrawlScope('https://x.dev/docs/intro');

  it('follows pages on the same origin under the start directory, one key per page', () => {
    expect(scope.page('setup', 'https://x.dev/docs/intro')).toEqual({ url: 'https://x.dev/docs/setup', key: 'https://x.dev/docs/setup' });
    expect(scope.page('/docs/guide/#top', 'https://x.dev/docs/intro')).toEqual({ url: 'https://x.dev/docs/guide/', key: 'https://x.dev/docs/guide' });
    expect(scope.page('/docs/index.html?x=1', 'https://x.dev/docs/intro')!.key).toBe('https://x.dev/docs');
    expect(scope.page('/docs', 'https://x.dev/docs/intro')!.key).toBe('https://x.dev/docs');
  });

  it('leaves other origins, other directories, files and non-http links alone', () => {
    for (const href of ['https://y.dev/docs/a', 'http://x.dev/docs/a', '/blog/a', '/docsx/a', 'logo.png', 'manual.pdf', 'mailto:a@x.dev', 'javascript:void(0)', 'http://[bad']) {
      expect({ href, page: scope.page(href, 'https://x.dev/docs/intro') }).toEqual({ href, page: null });
    }
  });
});

describe('parentIndexes', () => {
  it('puts each page under the closest page whose address is a directory above it', () => {
    const keys = ['https://x.dev/docs', 'https://x.dev/docs/a', 'https://x.dev/docs/a/b/c', 'https://x.dev/docs/b', 'https://x.dev/other'];
    expect(parentIndexes(keys)).toEqual([-1, 0, 1, 0, -1]);
  });
});
