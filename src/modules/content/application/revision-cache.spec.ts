import { Revision } from '../domain/revision';
import { PageNode } from '../domain/revision-content';
import { RevisionCache } from './revision-cache';

const page = (id: string, pages: PageNode[] = []): PageNode => ({
  id,
  kind: 'document',
  title: id,
  slug: id,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  pages,
});

const revision = (id: string, pages: PageNode[]): Revision => ({
  id,
  spaceId: 's',
  parents: [],
  type: 'edits',
  content: { pages, files: [], variables: {}, reusableContents: [] },
  createdBy: null,
  createdAt: new Date(0),
});

describe('RevisionCache', () => {
  it('returns what it keeps, deeply frozen', () => {
    const cache = new RevisionCache(100);
    cache.put(revision('r1', [page('a', [page('b')])]));
    const hit = cache.get('r1') as Revision;
    expect(hit.content.pages[0].pages[0].id).toBe('b');
    expect(() => {
      (hit.content.pages[0].pages[0] as { title: string }).title = 'changed';
    }).toThrow(TypeError);
    expect(() => hit.content.pages.push(page('c'))).toThrow(TypeError);
  });

  it('drops the least recently used revisions beyond its page budget', () => {
    const cache = new RevisionCache(6); // each revision below counts 2 pages + 1
    cache.put(revision('r1', [page('a'), page('b')]));
    cache.put(revision('r2', [page('a'), page('b')]));
    cache.get('r1'); // r2 is now the least recently used
    cache.put(revision('r3', [page('a'), page('b')]));
    expect(cache.get('r2')).toBeUndefined();
    expect(cache.get('r1')).toBeDefined();
    expect(cache.get('r3')).toBeDefined();
  });

  it('does not keep a revision larger than its whole budget', () => {
    const cache = new RevisionCache(2);
    const big = cache.put(revision('big', [page('a'), page('b'), page('c')]));
    expect(Object.isFrozen(big)).toBe(true);
    expect(cache.get('big')).toBeUndefined();
  });
});
