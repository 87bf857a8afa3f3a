import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestApp, TestUser } from '@app/testing';
import { RevisionFile } from '../src/modules/content/domain/revision-content';
import { commitContent, download, png, storeFile } from './content.fixtures';
import { grant, space, walk } from './spaces.fixtures';

const GUIDE_BODY = [
  '# Getting started',
  '',
  'Read the [install guide](/pages/install-page) or [the website](https://example.com/docs).',
  '',
  '## Steps',
  '',
  '- first step',
  '- second step',
  '',
  '1. ordered',
  '',
  '```ts',
  'const answer = 42;',
  '```',
  '',
].join('\n');

/** Every node of a document tree, depth first. */
function nodes(tree: any): any[] {
  return (tree.nodes ?? []).flatMap((node: any) => [node, ...nodes(node)]);
}

describe('space content reads', () => {
  let t: TestApp;
  let filesDir: string;
  let alice: TestUser; // org admin
  let reader: TestUser; // read role
  let guest: TestUser; // guest, no access to any space
  let mallory: TestUser; // admin of another organization
  let org: string;
  let spaceId: string;
  let files: RevisionFile[];
  let pagesRevision: string;

  beforeAll(async () => {
    filesDir = await mkdtemp(join(tmpdir(), 'content-e2e-'));
    t = await TestApp.start({ filesDir });
    alice = await t.user('Alice');
    reader = await t.user('Rita');
    guest = await t.user('Gus');
    mallory = await t.user('Mallory');
    org = await t.organization(alice, [
      [reader, 'read'],
      [guest, null],
    ]);
    await t.organization(mallory, [], 'Other Org');

    spaceId = await space(alice, org, { title: 'Docs' });
    files = [
      await storeFile(t, png(3, 2), 'diagram.png', 'image/png'),
      await storeFile(t, Buffer.from('hello, world\n'), 'notes.txt', 'text/plain'),
      await storeFile(t, Buffer.from('%PDF-1.4 not really'), 'report.pdf', 'application/pdf'),
    ];
    const revision = await commitContent(
      t,
      spaceId,
      [
        {
          id: 'guide-page',
          title: 'Guide',
          slug: 'guide',
          body: GUIDE_BODY,
          description: 'How to start',
          icon: 'rocket',
          emoji: '1f680',
          layout: { width: 'wide', outline: false, unknown: 'kept' },
          pages: [
            {
              id: 'install-page',
              title: 'Install',
              slug: 'install',
              body: 'Install it.\n',
              pages: [{ id: 'linux-page', title: 'Linux', slug: 'linux', body: '', hidden: true }],
            },
          ],
        },
        {
          id: 'reference-group',
          kind: 'group',
          title: 'Reference',
          slug: 'reference',
          pages: [{ id: 'api-page', title: 'API', slug: 'api', body: 'The API.\n' }],
        },
        { id: 'site-link', kind: 'link', title: 'Website', slug: 'website', target: { kind: 'url', url: 'https://example.com' } },
        { id: 'guide-link', kind: 'link', title: 'To install', slug: 'to-install', target: { kind: 'page', page: 'install-page' } },
      ],
      files,
    );
    pagesRevision = revision.id;
  });
  afterAll(async () => {
    await t.close();
    await rm(filesDir, { recursive: true, force: true });
  });

  const base = () => `/v1/spaces/${spaceId}/content`;

  describe('GET /v1/spaces/{spaceId}/content', () => {
    it("gives a new space's first revision: one empty page, no files", async () => {
      const id = await space(alice, org, { title: 'Fresh' });
      const spaceRes = await alice.client.get(`/v1/spaces/${id}`);
      const res = await alice.client.get(`/v1/spaces/${id}/content`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        object: 'revision',
        id: spaceRes.body.revision,
        parents: [],
        type: 'edits',
        files: [],
        reusableContents: [],
        variables: {},
        createdAt: t.clock.now().toISOString(),
        urls: { app: `http://docs.test/app/s/${id}/~/revisions/${spaceRes.body.revision}` },
      });
      expect(res.body.pages).toEqual([
        expect.objectContaining({ title: 'Untitled', slug: 'untitled', path: 'untitled', type: 'document', kind: 'sheet', markdown: '', pages: [] }),
      ]);
    });

    it('gives no page at all for a space created empty', async () => {
      const id = await space(alice, org, { title: 'Empty', empty: true });
      const res = await alice.client.get(`/v1/spaces/${id}/content`);
      expect(res.status).toBe(200);
      expect(res.body.pages).toEqual([]);
      expect((await alice.client.get(`/v1/spaces/${id}/content/pages`)).body).toEqual({ pages: [] });
    });

    it('gives the current revision with its page tree, files and parents', async () => {
      const res = await alice.client.get(base());
      expect(res.status).toBe(200);
      expect(res.body.id).toBe(pagesRevision);
      expect(res.body.parents).toHaveLength(1);
      expect(res.body.pages.map((p: any) => p.id)).toEqual(['guide-page', 'reference-group', 'site-link', 'guide-link']);
      expect(res.body.files.map((f: any) => f.name)).toEqual(['diagram.png', 'notes.txt', 'report.pdf']);
      // The metadata and computed flags are accepted and change nothing here.
      const flagged = await alice.client.get(base(), { metadata: 'false', computed: 'false' });
      expect(flagged.status).toBe(200);
      expect(flagged.body).toEqual(res.body);
    });

    it('copies the content when the space is duplicated', async () => {
      const copy = await alice.client.post(`/v1/spaces/${spaceId}/duplicate`);
      expect(copy.status).toBe(201);
      const [original, copied] = [await alice.client.get(`${base()}/pages`), await alice.client.get(`/v1/spaces/${copy.body.id}/content/pages`)];
      expect(copied.status).toBe(200);
      const shape = (pages: any[]): any[] => pages.map((p) => ({ id: p.id, title: p.title, path: p.path, markdown: p.markdown, pages: shape(p.pages ?? []) }));
      expect(shape(copied.body.pages)).toEqual(shape(original.body.pages));
      expect(copied.body.pages[0].urls.app).toBe(`http://docs.test/app/s/${copy.body.id}/guide`);
      const copiedFiles = await alice.client.get(`/v1/spaces/${copy.body.id}/content/files`);
      expect(copiedFiles.body.items.map((f: any) => f.id).sort()).toEqual(files.map((f) => f.id).sort());
    });
  });

  describe('GET /v1/spaces/{spaceId}/content/pages', () => {
    it('nests pages with paths from the slugs (groups add nothing), markdown bodies and app URLs', async () => {
      const res = await reader.client.get(`${base()}/pages`);
      expect(res.status).toBe(200);
      const [guide, reference, siteLink, guideLink] = res.body.pages;
      expect(guide).toMatchObject({
        id: 'guide-page',
        kind: 'sheet',
        type: 'document',
        title: 'Guide',
        emoji: '1f680',
        icon: 'rocket',
        slug: 'guide',
        path: 'guide',
        description: 'How to start',
        urls: { app: `http://docs.test/app/s/${spaceId}/guide` },
        layout: {
          width: 'wide',
          cover: true,
          coverSize: 'hero',
          title: true,
          description: true,
          tableOfContents: true,
          outline: false,
          pagination: true,
          metadata: true,
        },
      });
      expect(guide.layout.unknown).toBeUndefined();
      expect(guide.markdown).toContain('# Getting started');
      const install = guide.pages[0];
      expect(install).toMatchObject({ id: 'install-page', slug: 'install', path: 'guide/install', markdown: 'Install it.\n' });
      expect(install.pages[0]).toMatchObject({ id: 'linux-page', path: 'guide/install/linux', hidden: true });
      expect(install.pages[0].markdown).toBe('---\nhidden: true\n---\n\n');
      expect(reference).toMatchObject({ kind: 'group', type: 'group', slug: 'reference', path: 'reference' });
      expect(reference.pages[0]).toMatchObject({ id: 'api-page', path: 'api', urls: { app: `http://docs.test/app/s/${spaceId}/api` } });
      expect(siteLink).toMatchObject({ kind: 'link', type: 'link', target: { kind: 'url', url: 'https://example.com' }, href: 'https://example.com' });
      expect(guideLink).toMatchObject({ target: { kind: 'page', page: 'install-page' }, href: `http://docs.test/app/s/${spaceId}/guide/install` });
    });
  });

  describe('GET /v1/spaces/{spaceId}/content/page/{pageId}', () => {
    it('answers the page as a document by default, headings, lists, code and links included', async () => {
      const res = await reader.client.get(`${base()}/page/guide-page`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: 'guide-page', type: 'document', path: 'guide', description: 'How to start' });
      expect(res.body.markdown).toBeUndefined();
      const document = res.body.document;
      expect(document.object).toBe('document');
      const types = document.nodes.map((n: any) => n.type);
      expect(types).toEqual(['heading-1', 'paragraph', 'heading-2', 'list-unordered', 'list-ordered', 'code']);
      expect(document.nodes[0].data).toEqual({ id: 'getting-started' });
      const links = nodes(document).filter((n) => n.object === 'inline' && n.type === 'link');
      expect(links.map((l) => l.data.ref)).toEqual([
        { kind: 'page', page: 'install-page' },
        { kind: 'url', url: 'https://example.com/docs' },
      ]);
      expect(JSON.stringify(document.nodes[5])).toContain('const answer = 42;');
      // Child pages come as in the tree.
      expect(res.body.pages[0]).toMatchObject({ id: 'install-page', path: 'guide/install', markdown: 'Install it.\n' });
      const explicit = await reader.client.get(`${base()}/page/guide-page`, { format: 'document' });
      expect(explicit.body).toEqual(res.body);
    });

    it('answers the markdown as stored with its front matter when format=markdown', async () => {
      const res = await reader.client.get(`${base()}/page/guide-page`, { format: 'markdown' });
      expect(res.status).toBe(200);
      expect(res.body.document).toBeUndefined();
      expect(res.body.markdown).toBe(
        ['---', 'icon: rocket', 'description: How to start', 'layout:', '  width: wide', '  outline: false', '  unknown: kept', '---', '', GUIDE_BODY].join('\n'),
      );
      const plain = await reader.client.get(`${base()}/page/install-page`, { format: 'markdown' });
      expect(plain.body).toMatchObject({ path: 'guide/install', markdown: 'Install it.\n' });
    });

    it('reads nested pages, pages in groups and group and link pages', async () => {
      const linux = await reader.client.get(`${base()}/page/linux-page`);
      expect(linux.body).toMatchObject({ path: 'guide/install/linux', hidden: true, document: { object: 'document', nodes: [] } });
      const api = await reader.client.get(`${base()}/page/api-page`);
      expect(api.body).toMatchObject({ path: 'api', urls: { app: `http://docs.test/app/s/${spaceId}/api` } });
      const group = await reader.client.get(`${base()}/page/reference-group`);
      expect(group.body).toMatchObject({ type: 'group', path: 'reference', pages: [expect.objectContaining({ id: 'api-page', path: 'api' })] });
      const link = await reader.client.get(`${base()}/page/site-link`);
      expect(link.body).toMatchObject({ type: 'link', target: { kind: 'url', url: 'https://example.com' } });
    });

    it('accepts evaluated (true, false, deterministic-only) and the flags, which change nothing', async () => {
      const plain = await reader.client.get(`${base()}/page/guide-page`);
      for (const evaluated of ['true', 'false', 'deterministic-only']) {
        const res = await reader.client.get(`${base()}/page/guide-page`, { evaluated, metadata: 'true', computed: 'false' });
        expect(res.status).toBe(200);
        expect(res.body).toEqual(plain.body);
      }
    });

    it('answers 404 for an unknown page and for a page of another space', async () => {
      expect((await alice.client.get(`${base()}/page/nope`)).status).toBe(404);
      const other = await space(alice, org, { title: 'Other' });
      const otherPage = (await alice.client.get(`/v1/spaces/${other}/content/pages`)).body.pages[0].id;
      expect((await alice.client.get(`/v1/spaces/${other}/content/page/${otherPage}`)).status).toBe(200);
      const res = await alice.client.get(`${base()}/page/${otherPage}`);
      expect(res.status).toBe(404);
      expect(res.body.error.message).toContain(otherPage);
    });
  });

  describe('GET /v1/spaces/{spaceId}/content/files', () => {
    it('lists the files ordered by id; a limit walk gives each exactly once', async () => {
      const res = await reader.client.get(`${base()}/files`);
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(3);
      expect(res.body.next).toBeUndefined();
      const ids = files.map((f) => f.id).sort();
      expect(res.body.items.map((f: any) => f.id)).toEqual(ids);
      const walked = await walk(reader, `${base()}/files`, 1);
      expect(walked.items.map((f: any) => f.id)).toEqual(ids);
      expect(walked.pages).toBe(3);
      const two = await reader.client.get(`${base()}/files`, { limit: 2 });
      expect(two.body).toMatchObject({ count: 3, next: { page: expect.any(String) } });
      expect(two.body.items).toHaveLength(2);
    });

    it('describes each file: type, size, dimensions of images, a download URL', async () => {
      const res = await reader.client.get(`${base()}/files`);
      const image = res.body.items.find((f: any) => f.name === 'diagram.png');
      expect(image).toEqual({
        id: files[0].id,
        name: 'diagram.png',
        contentType: 'image/png',
        size: png(3, 2).length,
        dimensions: { width: 3, height: 2 },
        downloadURL: expect.stringMatching(/^http:\/\/docs\.test\/v1\/files\/[A-Za-z0-9_-]{43}$/),
      });
      const text = res.body.items.find((f: any) => f.name === 'notes.txt');
      expect(text.dimensions).toBeUndefined();
      expect(text.size).toBe(13);
    });
  });

  describe('GET /v1/spaces/{spaceId}/content/files/{fileId}', () => {
    it('gives one file, 404 for unknown ids', async () => {
      const res = await reader.client.get(`${base()}/files/${files[1].id}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: files[1].id, name: 'notes.txt', contentType: 'text/plain', size: 13 });
      expect((await reader.client.get(`${base()}/files/${files[1].id}`, { metadata: 'false' })).body).toEqual(res.body);
      expect((await reader.client.get(`${base()}/files/nope`)).status).toBe(404);
      // A file of another space's revision is not this space's.
      const other = await space(alice, org, { title: 'Other files' });
      const foreign = await storeFile(t, Buffer.from('x'), 'x.txt', 'text/plain');
      await commitContent(t, other, [{ title: 'P', slug: 'p' }], [foreign]);
      expect((await alice.client.get(`/v1/spaces/${other}/content/files/${foreign.id}`)).status).toBe(200);
      expect((await alice.client.get(`${base()}/files/${foreign.id}`)).status).toBe(404);
    });
  });

  describe('file storage and the download URL', () => {
    it('serves the stored bytes without a token, with their content type', async () => {
      const res = await reader.client.get(`${base()}/files/${files[0].id}`);
      const fetched = await download(t, res.body.downloadURL);
      expect(fetched.status).toBe(200);
      expect(Buffer.compare(fetched.body, png(3, 2))).toBe(0);
      expect(fetched.headers['content-type']).toBe('image/png');
      expect(fetched.headers['content-length']).toBe(String(png(3, 2).length));
      expect(fetched.headers['x-content-type-options']).toBe('nosniff');
      expect(fetched.headers['content-security-policy']).toContain('sandbox');
      expect(fetched.headers['content-disposition']).toBe("inline; filename*=UTF-8''diagram.png");

      const text = await download(t, (await reader.client.get(`${base()}/files/${files[1].id}`)).body.downloadURL);
      expect(text.body.toString('utf8')).toBe('hello, world\n');
      expect(text.headers['content-type']).toMatch(/^text\/plain/);
    });

    it('stores round trip through FilesService: size, dimensions, unguessable distinct keys', async () => {
      const a = await storeFile(t, png(17, 5), 'a b é.png', 'image/png');
      const b = await storeFile(t, png(17, 5), 'a b é.png', 'image/png');
      expect(a).toMatchObject({ name: 'a b é.png', contentType: 'image/png', size: png(17, 5).length, dimensions: { width: 17, height: 5 } });
      expect(a.storageKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(a.storageKey).not.toBe(b.storageKey);
      expect(a.id).not.toBe(b.id);
      const fetched = await download(t, `http://docs.test/v1/files/${a.storageKey}`);
      expect(Buffer.compare(fetched.body, png(17, 5))).toBe(0);
      expect(fetched.headers['content-disposition']).toBe("inline; filename*=UTF-8''a%20b%20%C3%A9.png");
    });

    it('refuses bad names and content types', async () => {
      await expect(storeFile(t, Buffer.from('x'), '', 'text/plain')).rejects.toThrow(/file name/);
      await expect(storeFile(t, Buffer.from('x'), '../etc/passwd', 'text/plain')).rejects.toThrow(/file name/);
      await expect(storeFile(t, Buffer.from('x'), 'x.txt', 'text')).rejects.toThrow(/content type/);
      await expect(storeFile(t, Buffer.from('x'), 'x.txt', 'text/plain\r\nX-Evil: 1')).rejects.toThrow(/content type/);
    });

    it('answers 404 for unknown and malformed keys', async () => {
      expect((await download(t, `http://docs.test/v1/files/${'A'.repeat(43)}`)).status).toBe(404);
      expect((await download(t, 'http://docs.test/v1/files/short')).status).toBe(404);
      expect((await download(t, 'http://docs.test/v1/files/..%2F..%2Fetc%2Fpasswd')).status).toBe(404);
    });
  });

  describe('access', () => {
    const paths = () => [
      base(),
      `${base()}/pages`,
      `${base()}/files`,
      `${base()}/files/${files[0].id}`,
      `${base()}/page/guide-page`,
      `${base()}/page/guide-page?format=markdown`,
    ];

    it('answers 404 on every path to members of another organization and to guests without access', async () => {
      for (const path of paths()) {
        for (const caller of [mallory, guest]) {
          const res = await caller.client.get(path);
          expect({ path, status: res.status }).toEqual({ path, status: 404 });
        }
        expect((await reader.client.get(path)).status).toBe(200);
      }
      expect((await t.client().get(base())).status).toBe(401);
    });

    it('lets a guest read once the space is shared with them', async () => {
      const shared = await space(alice, org, { title: 'Shared' });
      expect((await guest.client.get(`/v1/spaces/${shared}/content`)).status).toBe(404);
      await grant(t, org, { space: shared }, guest, 'read');
      expect((await guest.client.get(`/v1/spaces/${shared}/content`)).status).toBe(200);
      expect((await guest.client.get(`/v1/spaces/${shared}/content/pages`)).body.pages).toHaveLength(1);
    });

    it('answers 404 for an unknown space', async () => {
      expect((await alice.client.get('/v1/spaces/nope/content')).status).toBe(404);
      expect((await alice.client.get('/v1/spaces/nope/content/page/guide-page')).status).toBe(404);
    });
  });

  describe('bad query values', () => {
    it.each([
      ['page', { format: 'xml' }, 'format'],
      ['page', { evaluated: 'maybe' }, 'evaluated'],
      ['page', { metadata: 'yes' }, 'metadata'],
      ['page', { computed: '1' }, 'computed'],
      ['page', { format: ['markdown', 'document'] }, 'format'],
      ['page', { unknown: 'x' }, 'unknown'],
      ['revision', { metadata: 'nope' }, 'metadata'],
      ['pages', { computed: 'nope' }, 'computed'],
      ['files', { limit: '1001' }, 'limit'],
      ['files', { limit: '0' }, 'limit'],
      ['files', { limit: 'ten' }, 'limit'],
      ['files', { page: 'not-a-cursor' }, 'page'],
      ['files', { page: Buffer.from('[1]').toString('base64url') }, 'page'],
      ['file', { metadata: 'maybe' }, 'metadata'],
    ])('%s with %j -> 400 naming %s', async (target, query, name) => {
      const path = {
        page: `${base()}/page/guide-page`,
        revision: base(),
        pages: `${base()}/pages`,
        files: `${base()}/files`,
        file: `${base()}/files/${files[0].id}`,
      }[target]!;
      const res = await reader.client.get(path, query);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain(name);
    });
  });
});
