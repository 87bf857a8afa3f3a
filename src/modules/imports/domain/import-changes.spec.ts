import { CrawlScope } from './crawl-scope';
import { CrawledPage, importChanges, importedPageId, writeOrder } from './import-changes';

const page = (path: string, markdown = ''): CrawledPage => ({ url: `https://x.dev${path}`, key: `https://x.dev${path.replace(/\/$/, '')}`, title: path, markdown, links: [] });

describe('import changes', () => {
  it('derives page ids from the run, the same every time and different per run', () => {
    expect(importedPageId('run1', 0)).toBe(importedPageId('run1', 0));
    expect(importedPageId('run1', 0)).not.toBe(importedPageId('run1', 1));
    expect(importedPageId('run1', 0)).not.toBe(importedPageId('run2', 0));
    expect(importedPageId('run1', 0)).toMatch(/^[A-Za-z0-9]{20}$/);
  });

  it('writes parents first, nests pages by address and points links between imported pages at them', () => {
    const pages = writeOrder([page('/docs/a/b', 'See [home](../) and [out](https://y.dev/).'), page('/docs/'), page('/docs/a', '[b](a/b "B")')]);
    expect(pages.map((p) => p.key)).toEqual(['https://x.dev/docs', 'https://x.dev/docs/a', 'https://x.dev/docs/a/b']);
    const changes = importChanges(pages, ['P0', 'P1', 'P2'], new CrawlScope('https://x.dev/docs/'), 'PARENT');
    expect(changes.map((c) => (c.operation === 'insert_page' ? [c.ref, c.into] : null))).toEqual([
      ['import-0', 'PARENT'],
      ['import-1', 'import-0'],
      ['import-2', 'import-1'],
    ]);
    const markdown = (i: number) => (changes[i].operation === 'insert_page' && changes[i].document.kind === 'markdown' ? changes[i].document.markdown : '');
    expect(markdown(2)).toBe('See [home](/pages/P0) and [out](https://y.dev/).');
    expect(markdown(1)).toBe('[b](/pages/P2 "B")');
  });
});
