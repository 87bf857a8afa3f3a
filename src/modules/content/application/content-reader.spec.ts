import { Urls } from '@app/common';
import { Revision } from '../domain/revision';
import { PageNode, RevisionFile } from '../domain/revision-content';
import { deepFreeze } from '../domain/deep-freeze';
import { ContentReader, ContentScope } from './content-reader';
import { ContentStore } from './content-store.service';
import { FilesService } from './files.service';

const urls = { app: (path: string) => `http://x/app${path}`, api: (path: string) => `http://x/v1${path}` } as Urls;
const files = { downloadUrl: (file: RevisionFile) => `http://x/v1/files/${file.storageKey}` } as FilesService;
const bodies = new Map([['h1', 'Body one.\n']]);
const store = { loadDocuments: async (hashes: string[]) => new Map(hashes.filter((h) => bodies.has(h)).map((h) => [h, bodies.get(h)!])) } as unknown as ContentStore;
const reader = new ContentReader(store, files, urls);

const page = (id: string, slug: string, extra: Partial<PageNode> = {}): PageNode => ({
  id,
  kind: 'document',
  title: id,
  slug,
  documentHash: 'h1',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  pages: [],
  ...extra,
});
const file = (id: string): RevisionFile => ({ id, name: `${id}.txt`, contentType: 'text/plain', size: 1, storageKey: `key-${id}` });

function revision(extra: Partial<Revision> = {}): Revision {
  return {
    id: 'r1',
    spaceId: 's1',
    parents: [],
    type: 'edits',
    createdBy: null,
    createdAt: new Date('2026-01-01T00:00:00.000Z'),
    content: {
      pages: [
        page('a', 'a', { pages: [page('b', 'b', { pages: [page('c', 'c')] })] }),
        page('g', 'group', { kind: 'group', documentHash: undefined, pages: [page('d', 'd')] }),
      ],
      files: ['f3', 'f1', 'f2'].map(file),
      variables: {},
      reusableContents: [],
    },
    ...extra,
  };
}

describe('ContentReader', () => {
  it('presents revision types the contract knows, others as edits, merge only with its change request', async () => {
    const scope = { spaceId: 's1' };
    for (const [type, expected] of [['initial', 'edits'], ['duplicate', 'edits'], ['template', 'edits'], ['update', 'update'], ['edits', 'edits']] as const) {
      expect((await reader.revision(revision({ type }), scope)).type).toBe(expected);
    }
    const bare = await reader.revision(revision({ type: 'merge' }), scope);
    expect(bare.type).toBe('edits');
    expect(bare.mergedFrom).toBeUndefined();
    const merged = await reader.revision(revision({ type: 'merge' }), scope, { mergedFrom: { id: 'cr1' } });
    expect(merged).toMatchObject({ type: 'merge', mergedFrom: { id: 'cr1' } });
  });

  it('locates pages with paths from document ancestors; groups add nothing', () => {
    const r = revision();
    expect(reader.findPage(r, 'c')).toMatchObject({ path: 'a/b/c', parentPath: 'a/b' });
    expect(reader.findPage(r, 'd')).toMatchObject({ path: 'd', parentPath: '' });
    expect(reader.findPage(r, 'g')).toMatchObject({ path: 'group' });
    expect(reader.findPage(r, 'zzz')).toBeNull();
  });

  it('locates many pages in one walk, each as findPage does, leaving out the absent', () => {
    const r = revision();
    const found = reader.findPages(r, ['c', 'g', 'zzz', 'd']);
    expect([...found.keys()].sort()).toEqual(['c', 'd', 'g']);
    for (const id of ['c', 'd', 'g']) expect(found.get(id)).toEqual(reader.findPage(r, id));
    expect(reader.findPages(r, []).size).toBe(0);
  });

  it('pages files by id with an opaque cursor of the last id', () => {
    const r = revision();
    const first = reader.listFiles(r, { limit: 2 });
    expect(first.items.map((f) => f.id)).toEqual(['f1', 'f2']);
    expect(first.count).toBe(3);
    const second = reader.listFiles(r, { limit: 2, page: first.next });
    expect(second.items.map((f) => f.id)).toEqual(['f3']);
    expect(second.next).toBeUndefined();
    expect(() => reader.listFiles(r, { limit: 2, page: Buffer.from('[3]').toString('base64url') })).toThrow('Invalid "page" cursor');
  });

  it('writes front matter only for the properties a page has', () => {
    expect(reader.markdown(page('a', 'a'), 'Text\n')).toBe('Text\n');
    expect(reader.markdown(page('a', 'a', { description: 'D', hidden: true, icon: 'star' }), 'Text\n')).toBe(
      '---\nicon: star\ndescription: D\nhidden: true\n---\n\nText\n',
    );
    // A body that would read as front matter is protected.
    expect(reader.markdown(page('a', 'a'), '---\nnot: yaml front matter\n---\n')).toBe('---\n---\n\n---\nnot: yaml front matter\n---\n');
  });

  it('gives page objects in the requested format, children with markdown', async () => {
    const r = revision();
    const doc = await reader.page(r, { spaceId: 's1', changeRequest: { id: 'cr', number: 3 } }, 'b');
    expect(doc).toMatchObject({ id: 'b', path: 'a/b', urls: { app: 'http://x/app/s/s1/~/changes/3/a/b' }, document: { object: 'document' } });
    expect(doc.markdown).toBeUndefined();
    expect((doc.pages as any[])[0]).toMatchObject({ id: 'c', path: 'a/b/c', markdown: 'Body one.\n' });
    const md = await reader.page(r, { spaceId: 's1' }, 'b', 'markdown');
    expect(md).toMatchObject({ markdown: 'Body one.\n' });
    expect(md.document).toBeUndefined();
    await expect(reader.page(r, { spaceId: 's1' }, 'nope')).rejects.toThrow('Page "nope" not found');
  });

  describe('serialized page trees', () => {
    const json = async (target: ContentReader, r: Revision, scope: ContentScope) => Buffer.concat((await target.pagesObjectJson(r, scope)).parts).toString();
    const expected = async (target: ContentReader, r: Revision, scope: ContentScope) => JSON.stringify({ pages: await target.pages(r, scope) });
    const tree = (third: string): PageNode[] => [
      page('a', 'a', { emoji: '1f600', pages: [page('b', 'b', { description: 'D', hidden: true, pages: [page('c', 'c', { documentHash: 'h2' })] })] }),
      page('g', 'group', { kind: 'group', documentHash: undefined, pages: [page('d', 'd'), page('e', third, { documentHash: 'h3' })] }),
      page('l', 'to-e', { kind: 'link', documentHash: undefined, target: { kind: 'page', page: 'e' } }),
      page('k', 'api', { kind: 'computed', documentHash: undefined, computed: { type: 'builtin:openapi', props: { spec: 'petstore' } } as PageNode['computed'] }),
    ];
    const texts = new Map([['h1', 'One.\n'], ['h2', 'Two.\n'], ['h3', 'Three.\n']]);

    it('are the JSON of the presented pages, byte for byte, sharing unchanged pages between revisions but not scopes', async () => {
      const asked: string[][] = [];
      const counting = {
        loadDocuments: async (hashes: string[]) => {
          asked.push([...hashes].sort());
          return new Map(hashes.filter((h) => texts.has(h)).map((h) => [h, texts.get(h)!]));
        },
      } as unknown as ContentStore;
      const fresh = new ContentReader(counting, files, urls);
      const first = deepFreeze(revision({ id: 'r1', content: { ...revision().content, pages: tree('e') } }));
      const space = { spaceId: 's1' };
      expect(await json(fresh, first, space)).toBe(await expected(fresh, first, space));

      // The next revision renames e (a new object) and keeps every other page object.
      const [a, g, l, k] = first.content.pages;
      const renamed = { ...g.pages[1], slug: 'e-renamed' };
      const second = deepFreeze(revision({ id: 'r2', content: { ...first.content, pages: [a, { ...g, pages: [g.pages[0], renamed] }, l, k] } }));
      asked.length = 0;
      const serialized = await json(fresh, second, space);
      // Only the changed path is presented: e's body is the only one loaded; a and d come as they were.
      expect(asked).toEqual([['h3']]);
      expect(serialized).toBe(await expected(fresh, second, space));
      // The link page follows its target's new path.
      expect(JSON.parse(serialized).pages[2].href).toBe('http://x/app/s/s1/e-renamed');

      // Another scope (a change request) has URLs of its own.
      const changeRequest = { spaceId: 's1', changeRequest: { id: 'cr', number: 4 } };
      const inChangeRequest = await json(fresh, second, changeRequest);
      expect(inChangeRequest).toBe(await expected(fresh, second, changeRequest));
      expect(JSON.parse(inChangeRequest).pages[0].urls.app).toBe('http://x/app/s/s1/~/changes/4/a');
    });
  });
});
