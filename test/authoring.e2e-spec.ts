import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestApp, TestUser } from '@app/testing';
import { ContentStore } from '../src/modules/content/application/content-store.service';
import { extractLinks } from '../src/modules/content/domain/markdown';
import { Revision } from '../src/modules/content/domain/revision';
import { PageNode } from '../src/modules/content/domain/revision-content';
import { commitContent, download, png } from './content.fixtures';
import { space } from './spaces.fixtures';

describe('change request authoring (POST .../change-requests/{changeRequestId}/content)', () => {
  let t: TestApp;
  let filesDir: string;
  let alice: TestUser; // org admin
  let editor: TestUser; // edit role
  let reader: TestUser; // read role
  let mallory: TestUser; // admin of another organization
  let org: string;
  let spaceId: string;
  let baseRevision: string;

  beforeAll(async () => {
    filesDir = await mkdtemp(join(tmpdir(), 'authoring-e2e-'));
    t = await TestApp.start({ filesDir });
    alice = await t.user('Alice');
    editor = await t.user('Eddie');
    reader = await t.user('Rita');
    mallory = await t.user('Mallory');
    org = await t.organization(alice, [
      [editor, 'edit'],
      [reader, 'read'],
    ]);
    await t.organization(mallory, [], 'Other Org');
    spaceId = await space(alice, org, { title: 'Docs' });
    baseRevision = (
      await commitContent(t, spaceId, [
        { id: 'intro-page', title: 'Introduction', slug: 'introduction', body: 'Welcome.\n' },
        {
          id: 'guide-page',
          title: 'Guide',
          slug: 'guide',
          body: 'One.\n\nTwo.\n',
          pages: [{ id: 'install-page', title: 'Install', slug: 'install', body: 'Install it.\n' }],
        },
      ])
    ).id;
  });
  afterAll(async () => {
    await t.close();
    await rm(filesDir, { recursive: true, force: true });
  });

  async function newChangeRequest(user: TestUser = alice, inSpace = spaceId) {
    const res = await user.client.post(`/v1/spaces/${inSpace}/change-requests`, { subject: 'Edit' });
    if (res.status !== 201) throw new Error(`change request not created: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as { id: string; number: number; revision: string };
  }

  const path = (cr: { id: string } | string, inSpace = spaceId) => `/v1/spaces/${inSpace}/change-requests/${typeof cr === 'string' ? cr : cr.id}/content`;

  function post(user: TestUser, cr: { id: string } | string, changes: unknown[], compat?: boolean) {
    return user.client.send<any>('post', path(cr), { changes }, compat === undefined ? undefined : { compat: String(compat) });
  }

  async function head(cr: { id: string }): Promise<Revision> {
    const [row] = await t.dataSource.query('SELECT revision FROM change_requests WHERE id = $1', [cr.id]);
    return (await t.get<ContentStore>(ContentStore).get(row.revision))!;
  }

  function find(pages: PageNode[], id: string): PageNode | undefined {
    for (const page of pages) {
      if (page.id === id) return page;
      const found = find(page.pages, id);
      if (found) return found;
    }
    return undefined;
  }

  async function storedBody(revision: Revision, id: string): Promise<string> {
    const hash = find(revision.content.pages, id)!.documentHash!;
    return (await t.get<ContentStore>(ContentStore).loadDocuments([hash])).get(hash)!;
  }

  const revisionCount = async () => Number((await t.dataSource.query('SELECT count(*) AS n FROM revisions WHERE space_id = $1', [spaceId]))[0].n);

  describe('each kind of change', () => {
    it('insert_page: one new revision on top of the head; answered by default with the change request and the created page', async () => {
      const cr = await newChangeRequest();
      const res = await post(editor, cr, [{ operation: 'insert_page', into: 'guide-page', document: { markdown: '# Configuration\n\nSet it up.\n' } }]);
      expect(res.status).toBe(200);
      expect(res.body.changeRequest).toMatchObject({ object: 'change-request', id: cr.id, number: cr.number });
      expect(res.body.changeRequest.revision).not.toBe(cr.revision);

      const revision = await head(cr);
      expect(revision).toMatchObject({ id: res.body.changeRequest.revision, parents: [baseRevision], type: 'edits', createdBy: editor.id });
      const guide = find(revision.content.pages, 'guide-page')!;
      expect(guide.pages.map((p) => [p.title, p.slug])).toEqual([
        ['Install', 'install'],
        ['Configuration', 'configuration'],
      ]);
      // The caller learns the new page's id without asking for it.
      expect(res.body.changes).toEqual([
        { object: 'created_page', page: { object: 'page', id: guide.pages[1].id, urls: { location: expect.stringContaining(`/content/page/${guide.pages[1].id}`) } } },
      ]);
      expect(await storedBody(revision, guide.pages[1].id)).toBe('Set it up.\n');
      // Readable through the content API, and the editor became a contributor.
      const read = await reader.client.get(`${path(cr)}/page/${guide.pages[1].id}`, { format: 'markdown' });
      expect(read.status).toBe(200);
      expect(read.body).toMatchObject({ title: 'Configuration', path: 'guide/configuration', markdown: 'Set it up.\n' });
      const contributors = await t.dataSource.query('SELECT user_id FROM change_request_contributors WHERE change_request_id = $1', [cr.id]);
      expect(contributors.map((r: any) => r.user_id)).toContain(editor.id);
      // The space content did not move.
      expect((await reader.client.get(`/v1/spaces/${spaceId}/content`)).body.id).toBe(baseRevision);
    });

    it('compat=true: the bare change request, as GitBook answers it by default', async () => {
      const cr = await newChangeRequest();
      const res = await post(editor, cr, [{ operation: 'insert_page', title: 'Compat', document: {} }], true);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ object: 'change-request', id: cr.id });
      expect(res.body.changes).toBeUndefined();
      expect(res.body.revision).toBe((await head(cr)).id);
    });

    it('update_page, delete_page with compat=false: the affected pages, once each, in order', async () => {
      const cr = await newChangeRequest();
      const res = await post(
        editor,
        cr,
        [
          { operation: 'update_page', page: 'intro-page', title: 'Welcome', emoji: '👋', document: { markdown: '---\ndescription: Start here\n---\n\nHello.\n' } },
          { operation: 'update_page', page: 'install-page', into: null, at: 0, slug: 'installation' },
          { operation: 'delete_page', page: 'guide-page' },
          { operation: 'update_page', page: 'intro-page', hidden: true },
          { operation: 'insert_page', ref: 'new', title: 'New', document: {} },
        ],
        false,
      );
      expect(res.status).toBe(200);
      const location = (id: string) => `http://docs.test/v1/spaces/${spaceId}/change-requests/${cr.id}/content/page/${id}`;
      const created = res.body.changes[3];
      expect(res.body).toEqual({
        changeRequest: expect.objectContaining({ object: 'change-request', id: cr.id }),
        changes: [
          { object: 'updated_page', page: { object: 'page', id: 'intro-page', urls: { location: location('intro-page') } } },
          { object: 'updated_page', page: { object: 'page', id: 'install-page', urls: { location: location('install-page') } } },
          { object: 'deleted_page', page: 'guide-page' },
          { object: 'created_page', ref: 'new', page: { object: 'page', id: created.page.id, urls: { location: location(created.page.id) } } },
        ],
        insertedFiles: [],
      });
      const revision = await head(cr);
      expect(revision.content.pages.map((p) => [p.id, p.slug])).toEqual([
        ['install-page', 'installation'],
        ['intro-page', 'introduction'],
        [created.page.id, 'new'],
      ]);
      expect(find(revision.content.pages, 'intro-page')).toMatchObject({ title: 'Welcome', emoji: '👋', description: 'Start here', hidden: true });
      expect(await storedBody(revision, 'intro-page')).toBe('Hello.\n');
      const page = await reader.client.get(created.page.urls.location.replace('http://docs.test', ''));
      expect(page.status).toBe(200);
    });

    it('revert_page: restores pages to the change request base, block by block or whole', async () => {
      const cr = await newChangeRequest();
      expect(
        (
          await post(editor, cr, [
            { operation: 'update_page', page: 'guide-page', title: 'Changed', document: { markdown: 'One changed.\n\nTwo.\n\nThree.\n' } },
            { operation: 'delete_page', page: 'intro-page' },
          ])
        ).status,
      ).toBe(200);
      const blocks = await post(editor, cr, [{ operation: 'revert_page', page: 'guide-page', block: ['2'] }]);
      expect(blocks.status).toBe(200);
      let revision = await head(cr);
      expect(await storedBody(revision, 'guide-page')).toBe('One changed.\n\nTwo.\n');
      expect(find(revision.content.pages, 'guide-page')!.title).toBe('Changed');

      const res = await post(editor, cr, [{ operation: 'revert_page', page: 'guide-page' }, { operation: 'revert_page', page: 'intro-page' }], false);
      expect(res.status).toBe(200);
      expect(res.body.changes.map((c: any) => c.object)).toEqual(['updated_page', 'created_page']);
      revision = await head(cr);
      const base = (await t.get<ContentStore>(ContentStore).get(baseRevision))!;
      expect(revision.content.pages).toEqual(base.content.pages);
    });

    it('insert_files: bytes stored, files listed, referenced from a page of the batch by ref', async () => {
      const cr = await newChangeRequest();
      const image = png(3, 5);
      const res = await post(
        editor,
        cr,
        [
          { operation: 'insert_page', title: 'Gallery', document: { markdown: '![Shot](./shot.png)\n\n[Download](./shot.png)\n' } },
          { operation: 'insert_files', files: [{ ref: 'shot.png', name: 'shot.png', contentType: 'image/png', base64: image.toString('base64') }] },
        ],
        false,
      );
      expect(res.status).toBe(200);
      expect(res.body.insertedFiles).toEqual([
        { id: expect.any(String), name: 'shot.png', contentType: 'image/png', downloadURL: expect.stringMatching(/^http:\/\/docs\.test\/v1\//), size: image.length, dimensions: { width: 3, height: 5 } },
      ]);
      const file = res.body.insertedFiles[0];
      expect(Buffer.compare((await download(t, file.downloadURL)).body, image)).toBe(0);
      const revision = await head(cr);
      expect(revision.content.files.map((f) => f.id)).toEqual([file.id]);
      const gallery = res.body.changes[0].page.id;
      expect(extractLinks(await storedBody(revision, gallery)).map((l) => l.ref)).toEqual([
        { kind: 'file', file: file.id },
        { kind: 'file', file: file.id },
      ]);
      const listed = await reader.client.get(`${path(cr)}/files/${file.id}`);
      expect(listed.status).toBe(200);
      expect(listed.body).toEqual(file);
    });

    it('insert_files: a URL to a private address is refused, naming it, and nothing is written', async () => {
      const cr = await newChangeRequest();
      const before = await revisionCount();
      const res = await post(editor, cr, [{ operation: 'insert_files', files: [{ name: 'x.png', url: 'http://127.0.0.1:9/x.png' }] }]);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe('changes[0].files[0].url: "127.0.0.1" is a private or reserved address');
      const res2 = await post(editor, cr, [{ operation: 'insert_files', files: [{ name: 'x.png', url: 'http://localhost:9/x.png' }] }]);
      expect(res2.status).toBe(400);
      expect(res2.body.error.message).toMatch(/^changes\[0\]\.files\[0\]\.url: could not connect to "localhost"/);
      expect(await revisionCount()).toBe(before);
      expect((await head(cr)).id).toBe(cr.revision);
    });
  });

  describe('refs and links', () => {
    it('resolves refs within the batch and links to pages and files to ids (stored markdown)', async () => {
      const cr = await newChangeRequest();
      const res = await post(
        editor,
        cr,
        [
          {
            operation: 'insert_page',
            ref: 'overview',
            document: { markdown: '# Overview\n\nRead [the details](./details.md), the [install page](/pages/guide/install) and [intro](../introduction.md).\n' },
          },
          { operation: 'insert_page', ref: 'details', into: 'overview', document: { markdown: '# Details\n\n[Up](../overview.md) [Sibling](./more.md) [Guide](/pages/guide-page#top)\n' } },
          { operation: 'insert_page', ref: 'more', into: 'overview', title: 'More', document: { markdown: '[External](https://example.com/a.md) [Missing](./nowhere.md)\n' } },
          { operation: 'update_page', page: 'intro-page', document: { markdown: 'See the [overview](./overview.md) and [setup](/pages/guide/install.md).\n' } },
        ],
        false,
      );
      expect(res.status).toBe(200);
      const [overview, details, more] = res.body.changes.slice(0, 3).map((c: any) => c.page.id);
      expect(res.body.changes.map((c: any) => [c.object, c.ref])).toEqual([
        ['created_page', 'overview'],
        ['created_page', 'details'],
        ['created_page', 'more'],
        ['updated_page', undefined],
      ]);
      const revision = await head(cr);
      expect(find(revision.content.pages, overview)!.pages.map((p) => p.id)).toEqual([details, more]);
      const refs = async (id: string) => extractLinks(await storedBody(revision, id)).map((l) => l.ref);
      expect(await refs(overview)).toEqual([
        { kind: 'page', page: details },
        { kind: 'page', page: 'install-page' },
        { kind: 'page', page: 'intro-page' },
      ]);
      expect(await storedBody(revision, overview)).toBe(
        `Read [the details](/pages/${details}), the [install page](/pages/install-page) and [intro](/pages/intro-page).\n`,
      );
      expect(await refs(details)).toEqual([
        { kind: 'page', page: overview },
        { kind: 'page', page: more },
        { kind: 'anchor', anchor: 'top', page: 'guide-page' },
      ]);
      expect(await refs(more)).toEqual([
        { kind: 'url', url: 'https://example.com/a.md' },
        { kind: 'url', url: './nowhere.md' },
      ]);
      expect(await refs('intro-page')).toEqual([
        { kind: 'page', page: overview },
        { kind: 'page', page: 'install-page' },
      ]);
    });

    it('refuses a change naming a ref only defined later in the batch, and duplicate refs', async () => {
      const cr = await newChangeRequest();
      const later = await post(editor, cr, [
        { operation: 'insert_page', into: 'child', document: {} },
        { operation: 'insert_page', ref: 'child', document: {} },
      ]);
      expect(later.status).toBe(400);
      expect(later.body.error.message).toBe('changes[0]: page "child" not found');
      const duplicate = await post(editor, cr, [
        { operation: 'insert_page', ref: 'a', document: {} },
        { operation: 'insert_page', ref: 'a', document: {} },
      ]);
      expect(duplicate.status).toBe(400);
      expect(duplicate.body.error.message).toBe('changes[1]: ref "a" is already used by changes[0]');
    });
  });

  describe('atomicity and limits', () => {
    it('one invalid change among valid ones rejects the whole batch, naming it; the head is unchanged', async () => {
      const cr = await newChangeRequest();
      const before = await revisionCount();
      const res = await post(editor, cr, [
        { operation: 'insert_page', title: 'A', document: {} },
        { operation: 'update_page', page: 'intro-page', title: 'B' },
        { operation: 'delete_page', page: 'x' },
        { operation: 'insert_page', title: 'C', document: {} },
      ]);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: { code: 400, message: 'changes[2]: page "x" not found' } });
      expect((await head(cr)).id).toBe(cr.revision);
      expect(await revisionCount()).toBe(before);
      const got = await reader.client.get(`/v1/spaces/${spaceId}/change-requests/${cr.id}`);
      expect(got.body.revision).toBe(cr.revision);
    });

    it('50 changes are one revision; 51 are a 400 and write nothing', async () => {
      const cr = await newChangeRequest();
      const changes = (n: number) => Array.from({ length: n }, (_, i) => ({ operation: 'insert_page', title: `Page ${i}`, document: {} }));
      const before = await revisionCount();
      const tooMany = await post(editor, cr, changes(51));
      expect(tooMany.status).toBe(400);
      expect(tooMany.body.error.message).toBe('changes: must contain at most 50 changes (got 51)');
      expect(await revisionCount()).toBe(before);
      const ok = await post(editor, cr, changes(50));
      expect(ok.status).toBe(200);
      expect(await revisionCount()).toBe(before + 1);
      expect((await head(cr)).content.pages).toHaveLength(52);
    });

    it.each([
      ['changes: is required', {}],
      ['changes: must contain at least 1 change', { changes: [] }],
      ['changes: must be an array', { changes: 'x' }],
      ['other: property should not exist', { changes: [{ operation: 'insert_page', document: {} }], other: true }],
      ['changes[0].colour: property should not exist', { changes: [{ operation: 'insert_page', document: {}, colour: 'red' }] }],
      ['changes[0].title: must be a string', { changes: [{ operation: 'insert_page', document: {}, title: 5 }] }],
      ['changes[0].title: must be at most 256 characters long', { changes: [{ operation: 'insert_page', document: {}, title: 'x'.repeat(300) }] }],
      ['changes[0].at: must be an integer not less than 0', { changes: [{ operation: 'insert_page', document: {}, at: 'first' }] }],
      ['changes[0].operation: must be one of', { changes: [{ operation: 'move_page', page: 'x' }] }],
      ['changes[0]: Invalid front matter: "hidden" must be true or false', { changes: [{ operation: 'insert_page', document: { markdown: '---\nhidden: maybe\n---\nx' } }] }],
    ])('bad input is a 400 naming the field: %s', async (message, body) => {
      const cr = await newChangeRequest();
      const res = await editor.client.post(path(cr), body);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain(message);
      expect((await head(cr)).id).toBe(cr.revision);
    });

    it('refuses a bad compat flag and a body that is not JSON', async () => {
      const cr = await newChangeRequest();
      const res = await editor.client.send<any>('post', path(cr), { changes: [{ operation: 'insert_page', document: {} }] }, { compat: 'maybe' });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain('compat');
      expect((await editor.client.raw('post', path(cr), '{"changes": [')).status).toBe(400);
      expect((await head(cr)).id).toBe(cr.revision);
    });
  });

  describe('with the change request lifecycle', () => {
    it('parallel batches on one change request all land, one revision each, chained', async () => {
      const cr = await newChangeRequest();
      const results = await Promise.all(
        Array.from({ length: 5 }, (_, i) => post(editor, cr, [{ operation: 'insert_page', title: `Parallel ${i}`, document: { markdown: `Body ${i}.\n` } }])),
      );
      expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
      const revision = await head(cr);
      expect(revision.content.pages.map((p) => p.title).filter((title) => title.startsWith('Parallel')).sort()).toEqual(
        [0, 1, 2, 3, 4].map((i) => `Parallel ${i}`),
      );
      let depth = 0;
      for (let at: Revision = revision; at.id !== cr.revision; depth++) at = (await t.get<ContentStore>(ContentStore).get(at.parents[0]))!;
      expect(depth).toBe(5);
    });

    it('authored content merges into the space', async () => {
      const mergeSpace = await space(alice, org, { title: 'Merge' });
      const cr = await newChangeRequest(alice, mergeSpace);
      const first = (await reader.client.get(`/v1/spaces/${mergeSpace}/content/pages`)).body.pages[0].id;
      const res = await editor.client.post(path(cr, mergeSpace), {
        changes: [
          { operation: 'update_page', page: first, document: { markdown: '# Home\n\nSee [setup](./setup.md).\n' } },
          { operation: 'insert_page', ref: 'setup', document: { markdown: '# Setup\n\nDo this.\n' } },
        ],
      });
      expect(res.status).toBe(200);
      expect((await alice.client.patch(`/v1/spaces/${mergeSpace}/change-requests/${cr.id}`, { status: 'open' })).status).toBe(200);
      const merged = await alice.client.post(`/v1/spaces/${mergeSpace}/change-requests/${cr.id}/merge`);
      expect(merged.status).toBe(200);
      const pages = (await reader.client.get(`/v1/spaces/${mergeSpace}/content/pages`)).body.pages;
      expect(pages.map((p: any) => p.title)).toEqual(['Home', 'Setup']);
      expect(pages[0].markdown).toBe(`See [setup](/pages/${pages[1].id}).\n`);
      // The space's new head is a merge revision naming the change request it merged.
      const head = (await reader.client.get(`/v1/spaces/${mergeSpace}/content`)).body;
      expect(head.id).toBe(merged.body.revision);
      expect(head.type).toBe('merge');
      expect(head.mergedFrom).toMatchObject({ object: 'change-request', id: cr.id });
    });
  });

  describe('access and state', () => {
    it('works by change request number; a read member gets 403, other organizations and unknown ids 404', async () => {
      const cr = await newChangeRequest();
      const change = [{ operation: 'insert_page', title: 'X', document: {} }];
      expect((await post(reader, cr, change)).status).toBe(403);
      expect((await post(mallory, cr, change)).status).toBe(404);
      expect((await post(editor, 'nope', change)).status).toBe(404);
      const otherSpace = await space(alice, org, { title: 'Other' });
      const foreign = await newChangeRequest(alice, otherSpace);
      expect((await post(editor, foreign, change)).status).toBe(404);
      // Ids in the body only name content of this space: another space's revision or page is not found.
      const foreignRevision = (await t.dataSource.query('SELECT revision_id FROM spaces WHERE id = $1', [otherSpace]))[0].revision_id;
      const foreignPage = (await reader.client.get(`/v1/spaces/${otherSpace}/content/pages`)).body.pages[0].id;
      const smuggled = await post(editor, cr, [{ operation: 'revert_page', page: 'intro-page', revision: foreignRevision }]);
      expect(smuggled.status).toBe(400);
      expect(smuggled.body.error.message).toBe(`changes[0]: revision "${foreignRevision}" not found`);
      for (const bad of [
        { operation: 'update_page', page: foreignPage, title: 'x' },
        { operation: 'insert_page', into: foreignPage, document: {} },
        { operation: 'delete_page', page: foreignPage },
      ]) {
        const res = await post(editor, cr, [bad]);
        expect(res.status).toBe(400);
        expect(res.body.error.message).toBe(`changes[0]: page "${foreignPage}" not found`);
      }
      // Mallory's own space cannot be reached with this organization's change request either.
      const mallorySpace = await space(mallory, (await mallory.client.get('/v1/orgs')).body.items[0].id, { title: 'M' });
      expect((await mallory.client.post(path(cr, mallorySpace), { changes: change })).status).toBe(404);
      expect((await head(cr)).id).toBe(cr.revision);
      const byNumber = await post(editor, String(cr.number), change);
      expect(byNumber.status).toBe(200);
      expect(byNumber.body.changeRequest.id).toBe(cr.id);
    });

    it('a locked space refuses edits with 423 until unlocked', async () => {
      const cr = await newChangeRequest();
      expect((await alice.client.patch(`/v1/spaces/${spaceId}`, { editMode: 'locked' })).status).toBe(200);
      try {
        for (const user of [editor, alice]) {
          const res = await post(user, cr, [{ operation: 'insert_page', title: 'X', document: {} }]);
          expect(res.status).toBe(423);
          expect(res.body.error.message).toContain('locked');
        }
        expect((await head(cr)).id).toBe(cr.revision);
      } finally {
        expect((await alice.client.patch(`/v1/spaces/${spaceId}`, { editMode: 'live' })).status).toBe(200);
      }
      expect((await post(editor, cr, [{ operation: 'insert_page', title: 'X', document: {} }])).status).toBe(200);
    });

    it('an archived change request cannot be edited (409)', async () => {
      const cr = await newChangeRequest();
      expect((await alice.client.patch(`/v1/spaces/${spaceId}/change-requests/${cr.id}`, { status: 'archived' })).status).toBe(200);
      const res = await post(editor, cr, [{ operation: 'insert_page', title: 'X', document: {} }]);
      expect(res.status).toBe(409);
      expect((await head(cr)).id).toBe(cr.revision);
    });
  });
});
