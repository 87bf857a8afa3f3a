import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestApp, TestUser } from '@app/testing';
import { ContentStore } from '../src/modules/content/application/content-store.service';
import { documentHash } from '../src/modules/content/domain/document-hash';
import { Revision } from '../src/modules/content/domain/revision';
import { SpacesService } from '../src/modules/spaces/application/spaces.service';
import { createChangeRequest, spaceHead } from './change-requests.fixtures';
import { postComment } from './comments.fixtures';
import { PageSpec, buildContent, png, storeFile } from './content.fixtures';
import { space } from './spaces.fixtures';

/**
 * The reads GitBook's current client has beyond the first content API: revisions by id, pages
 * by path, documents by id, reusable contents, meta links, semantic changes, contributors,
 * commenters, users by id, and createSpace with a template. Every response is checked against
 * GitBook's contract by the ApiClient.
 */
describe('revisions and the other reads of the current client', () => {
  let t: TestApp;
  let filesDir: string;
  let alice: TestUser, editor: TestUser, reader: TestUser, guest: TestUser, mallory: TestUser;
  let org: string;
  let spaceId: string;
  let otherSpaceId: string;
  let mallorysSpaceId: string;
  let firstRevision: string;
  let seeded: Revision;
  let fileId: string;

  const UNIQUE_BODY = 'Only Alice has this exact sentence.\n';

  /** Commits pages (and a reusable content) on top of the space's head and makes it current. */
  async function commit(inSpace: string, pages: PageSpec[], extra: { fileIds?: string[]; reusable?: { id: string; title: string; body: string } } = {}) {
    const store = t.get<ContentStore>(ContentStore);
    const head = await spaceHead(t, inSpace);
    const files = extra.fileIds ? (await store.get(head))!.content.files.filter((f) => extra.fileIds!.includes(f.id)) : [];
    const { content, documents } = buildContent(pages, files);
    if (extra.reusable) {
      documents.set(documentHash(extra.reusable.body), extra.reusable.body);
      content.reusableContents.push({ id: extra.reusable.id, title: extra.reusable.title, documentHash: documentHash(extra.reusable.body) });
    }
    const revision = await store.commit({ spaceId: inSpace, parents: [head], type: 'edits', content, documents, createdBy: null });
    if (!(await t.get<SpacesService>(SpacesService).advanceRevision(inSpace, head, revision.id))) throw new Error('space head moved');
    return revision;
  }

  const PAGES: PageSpec[] = [
    { id: 'intro-page', title: 'Introduction', slug: 'introduction', body: UNIQUE_BODY },
    {
      id: 'guide-page',
      title: 'Guide',
      slug: 'guide',
      body: 'The guide.\n',
      pages: [{ id: 'install-page', title: 'Install', slug: 'install', body: 'Install it.\n' }],
    },
    { id: 'ref-group', kind: 'group', title: 'Reference', slug: 'reference', pages: [{ id: 'api-page', title: 'API', slug: 'api', body: 'Calls.\n' }] },
  ];

  beforeAll(async () => {
    filesDir = await mkdtemp(join(tmpdir(), 'revisions-reads-'));
    t = await TestApp.start({ filesDir });
    [alice, editor, reader, guest, mallory] = [await t.user('Alice'), await t.user('Eddie'), await t.user('Rita'), await t.user('Gus'), await t.user('Mallory')];
    org = await t.organization(alice, [
      [editor, 'edit'],
      [reader, 'read'],
      [guest, null],
    ]);
    const mallorysOrg = await t.organization(mallory, [], 'Other Org');
    spaceId = await space(alice, org, { title: 'Docs' });
    otherSpaceId = await space(alice, org, { title: 'Other docs' });
    mallorysSpaceId = await space(mallory, mallorysOrg, { title: "Mallory's" });
    firstRevision = await spaceHead(t, spaceId);

    // A file and a reusable content in the space's second revision.
    const stored = await storeFile(t, png(4, 3), 'shot.png', 'image/png');
    const store = t.get<ContentStore>(ContentStore);
    const head = await spaceHead(t, spaceId);
    const withFile = await store.commit({
      spaceId,
      parents: [head],
      type: 'edits',
      content: { ...structuredClone((await store.get(head))!.content), files: [stored] },
      documents: new Map(),
      createdBy: null,
    });
    await t.get<SpacesService>(SpacesService).advanceRevision(spaceId, head, withFile.id);
    fileId = stored.id;
    seeded = await commit(spaceId, PAGES, { fileIds: [fileId], reusable: { id: 'snippet', title: 'Snippet', body: 'Reusable words.\n' } });
    await commit(otherSpaceId, [{ id: 'other-page', title: 'Other', slug: 'other', body: 'Another space.\n' }]);
    await commit(mallorysSpaceId, [{ id: 'm-page', title: 'Mine', slug: 'mine', body: 'Mallory text.\n' }]);
  });
  afterAll(async () => {
    await t.close();
    await rm(filesDir, { recursive: true, force: true });
  });

  const rev = (revisionId: string, rest = '', inSpace = spaceId) => `/v1/spaces/${inSpace}/revisions/${revisionId}${rest}`;

  describe('revisions by id', () => {
    it('every revision id the API names resolves: the space content, a change request head and base', async () => {
      const content = await reader.client.get(`/v1/spaces/${spaceId}/content`);
      expect(content.status).toBe(200);
      const res = await reader.client.get(rev(content.body.id));
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ object: 'revision', id: seeded.id, parents: [seeded.parents[0]], type: 'edits' });
      expect(res.body.pages.map((p: { id: string }) => p.id)).toEqual(['intro-page', 'guide-page', 'ref-group']);
      expect(res.body.urls.app).toBe(`http://docs.test/app/s/${spaceId}/~/revisions/${seeded.id}`);

      const cr = await createChangeRequest(alice, spaceId, { subject: 'Resolve ids' });
      const got = await reader.client.get(`/v1/spaces/${spaceId}/change-requests/${cr.id}`);
      for (const id of [got.body.revision, got.body.revisionInitial]) expect((await reader.client.get(rev(id))).status).toBe(200);

      const first = await reader.client.get(rev(firstRevision));
      expect(first.body).toMatchObject({ id: firstRevision, parents: [], type: 'edits' });
      expect(first.body.pages.map((p: { title: string }) => p.title)).toEqual(['Untitled']);
    });

    it('the tree, one page, its document, a page by path (plain or encoded), files and reusable contents', async () => {
      const pages = await reader.client.get(rev(seeded.id, '/pages'));
      expect(pages.status).toBe(200);
      expect(pages.body.pages[1].pages[0]).toMatchObject({ id: 'install-page', path: 'guide/install' });
      expect(pages.body.pages[1].pages[0].urls.app).toBe(`http://docs.test/app/s/${spaceId}/~/revisions/${seeded.id}/guide/install`);

      const page = await reader.client.get(rev(seeded.id, '/page/intro-page'), { format: 'markdown' });
      expect(page.body).toMatchObject({ id: 'intro-page', markdown: UNIQUE_BODY });

      const document = await reader.client.get(rev(seeded.id, '/page/intro-page/document'));
      expect(document.status).toBe(200);
      expect(document.body.object).toBe('document');
      expect(JSON.stringify(document.body)).toContain('Only Alice has this exact sentence.');
      expect((await reader.client.get(rev(seeded.id, '/page/ref-group/document'))).status).toBe(404);

      for (const path of ['guide/install', 'guide%2Finstall', 'api']) {
        const byPath = await reader.client.get(rev(seeded.id, `/path/${path}`));
        expect(byPath.status).toBe(200);
        expect(byPath.body.id).toBe(path === 'api' ? 'api-page' : 'install-page');
      }
      const group = await reader.client.get(rev(seeded.id, '/path/reference'));
      expect(group.body).toMatchObject({ id: 'ref-group', type: 'group' });
      const markdown = await reader.client.get(rev(seeded.id, '/path/guide'), { format: 'markdown', 'format.markdown.refs': 'stable' });
      expect(markdown.body).toMatchObject({ id: 'guide-page', markdown: 'The guide.\n' });
      // By id too, with the parameters GitBook's renderer sends for `<page>.md` and llms-full.txt.
      const byId = await reader.client.get(rev(seeded.id, '/page/guide-page'), { format: 'markdown', 'format.markdown.refs': 'stable', dereferenced: 'reusable-contents', evaluated: 'deterministic-only' });
      expect([byId.status, byId.body.markdown]).toEqual([200, 'The guide.\n']);
      const inSpace = await reader.client.get(`/v1/spaces/${spaceId}/content/page/guide-page`, { format: 'markdown', 'format.markdown.refs': 'stable' });
      expect(inSpace.status).toBe(200);
      expect((await reader.client.get(rev(seeded.id, '/path/guide/missing'))).status).toBe(404);
      expect((await reader.client.get(rev(firstRevision, '/path/guide'))).status).toBe(404);

      const files = await reader.client.get(rev(seeded.id, '/files'));
      expect(files.body).toMatchObject({ count: 1, items: [{ id: fileId, name: 'shot.png', dimensions: { width: 4, height: 3 } }] });
      expect((await reader.client.get(rev(seeded.id, `/files/${fileId}`))).body.id).toBe(fileId);
      expect((await reader.client.get(rev(firstRevision, `/files/${fileId}`))).status).toBe(404);

      const reusable = await reader.client.get(rev(seeded.id, '/reusable-contents/snippet'));
      expect(reusable.body).toEqual({ id: 'snippet', title: 'Snippet', document: documentHash('Reusable words.\n') });
      const reusableDocument = await reader.client.get(rev(seeded.id, '/reusable-contents/snippet/document'));
      expect(JSON.stringify(reusableDocument.body)).toContain('Reusable words.');
      expect((await reader.client.get(rev(firstRevision, '/reusable-contents/snippet'))).status).toBe(404);

      expect((await reader.client.get(rev(seeded.id, '/page/guide-page/meta-links'))).body).toEqual({ alternates: [] });
      expect((await reader.client.get(rev(seeded.id, '/page/nope/meta-links'))).status).toBe(404);
    });

    it('semantic changes against the first parent, limited, with `more`', async () => {
      const first = await reader.client.get(rev(firstRevision, '/changes'));
      expect(first.status).toBe(200);
      expect(first.body.changes).toEqual([{ type: 'page_created', page: expect.objectContaining({ type: 'document', title: 'Untitled', path: 'untitled' }) }]);

      const all = await reader.client.get(rev(seeded.id, '/changes'), { limit: 100 });
      const types = all.body.changes.map((c: { type: string; page?: { id: string } }) => `${c.type}:${c.page?.id ?? ''}`);
      expect(types).toEqual(
        expect.arrayContaining(['page_created:intro-page', 'page_created:install-page', 'page_created:ref-group', 'page_created:api-page', 'reusable_content_created:']),
      );
      expect(types.filter((x: string) => x.startsWith('page_deleted'))).toHaveLength(1);
      expect(all.body.more).toBeUndefined();

      const limited = await reader.client.get(rev(seeded.id, '/changes'), { limit: 2 });
      expect(limited.body.changes).toHaveLength(2);
      expect(limited.body.more).toBe(all.body.changes.length - 2);
      expect((await reader.client.get(rev(seeded.id, '/changes'), { limit: 0 })).status).toBe(400);
      expect((await reader.client.get(rev(seeded.id, '/changes'), { limit: 'ten' })).status).toBe(400);

      // The file revision: one file created.
      const withFile = seeded.parents[0];
      const fileChanges = await reader.client.get(rev(withFile, '/changes'));
      expect(fileChanges.body.changes).toEqual([{ type: 'file_created', file: expect.objectContaining({ id: fileId, name: 'shot.png', contentType: 'image/png' }) }]);
    });

    it("is 404 for another space's revision (same organization or not), an unknown id, and callers who cannot see the space", async () => {
      const otherHead = await spaceHead(t, otherSpaceId);
      const mallorysHead = await spaceHead(t, mallorysSpaceId);
      for (const suffix of ['', '/pages', '/changes', '/files', '/page/other-page', '/path/other']) {
        expect((await alice.client.get(rev(otherHead, suffix))).status).toBe(404);
        expect((await alice.client.get(rev(mallorysHead, suffix))).status).toBe(404);
        expect((await mallory.client.get(rev(mallorysHead, suffix, mallorysSpaceId).replace(mallorysHead, seeded.id))).status).toBe(404);
      }
      expect((await alice.client.get(rev('nope'))).status).toBe(404);
      expect((await mallory.client.get(rev(seeded.id))).status).toBe(404);
      expect((await alice.client.get(rev(otherHead, '', otherSpaceId))).status).toBe(200);
    });
  });

  describe('pages by path, reusable contents and meta links of the space and of a change request', () => {
    it('reads the current revision by path', async () => {
      const res = await reader.client.get(`/v1/spaces/${spaceId}/content/path/guide/install`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: 'install-page', path: 'guide/install', document: { object: 'document' } });
      expect((await reader.client.get(`/v1/spaces/${spaceId}/content/path/guide%2Finstall`)).body.id).toBe('install-page');
      expect((await reader.client.get(`/v1/spaces/${spaceId}/content/path/nowhere`)).status).toBe(404);
      expect((await reader.client.get(`/v1/spaces/${spaceId}/content/path/guide`, { format: 'pdf' })).status).toBe(400);
      expect((await mallory.client.get(`/v1/spaces/${spaceId}/content/path/guide`)).status).toBe(404);

      expect((await reader.client.get(`/v1/spaces/${spaceId}/content/reusable-contents/snippet`)).body.title).toBe('Snippet');
      expect((await reader.client.get(`/v1/spaces/${spaceId}/content/reusable-contents/nope`)).status).toBe(404);
      expect((await reader.client.get(`/v1/spaces/${spaceId}/content/page/intro-page/meta-links`)).body).toEqual({ alternates: [] });
      expect((await reader.client.get(`/v1/spaces/${spaceId}/content/page/nope/meta-links`)).status).toBe(404);
    });

    it("reads a change request's head by path; another space's change request is 404", async () => {
      const cr = await createChangeRequest(editor, spaceId, { subject: 'Add FAQ' });
      const edit = await editor.client.post(`/v1/spaces/${spaceId}/change-requests/${cr.id}/content`, {
        changes: [{ operation: 'insert_page', into: 'guide-page', document: { markdown: '# FAQ\n\nAnswers.\n' } }],
      });
      expect(edit.status).toBe(200);
      const base = `/v1/spaces/${spaceId}/change-requests/${cr.id}/content`;
      const res = await reader.client.get(`${base}/path/guide/faq`, { format: 'markdown' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ title: 'FAQ', path: 'guide/faq', markdown: 'Answers.\n' });
      expect((await reader.client.get(`/v1/spaces/${spaceId}/content/path/guide/faq`)).status).toBe(404);
      expect((await reader.client.get(`${base}/reusable-contents/snippet`)).status).toBe(200);
      expect((await reader.client.get(`${base}/page/intro-page/meta-links`)).body).toEqual({ alternates: [] });
      expect((await alice.client.get(`/v1/spaces/${otherSpaceId}/change-requests/${cr.id}/content/path/guide/faq`)).status).toBe(404);
    });
  });

  describe('documents by id', () => {
    it("answers a documentId the space's content names, in any revision; elsewhere 404", async () => {
      const page = await reader.client.get(`/v1/spaces/${spaceId}/content/page/intro-page`);
      const documentId = page.body.documentId as string;
      const res = await reader.client.get(`/v1/spaces/${spaceId}/documents/${documentId}`, { schema: 'current' });
      expect(res.status).toBe(200);
      expect(JSON.stringify(res.body)).toContain('Only Alice has this exact sentence.');
      // The reusable content's document, and a body only an older revision had.
      expect((await reader.client.get(`/v1/spaces/${spaceId}/documents/${documentHash('Reusable words.\n')}`)).status).toBe(200);
      expect((await reader.client.get(`/v1/spaces/${spaceId}/documents/${documentHash('')}`)).status).toBe(200);

      // The hash is known, the text is stored, but these spaces never had it.
      expect((await alice.client.get(`/v1/spaces/${otherSpaceId}/documents/${documentId}`)).status).toBe(404);
      expect((await mallory.client.get(`/v1/spaces/${mallorysSpaceId}/documents/${documentId}`)).status).toBe(404);
      expect((await mallory.client.get(`/v1/spaces/${spaceId}/documents/${documentId}`)).status).toBe(404);
      expect((await reader.client.get(`/v1/spaces/${spaceId}/documents/nope`)).status).toBe(404);
      expect((await reader.client.get(`/v1/spaces/${spaceId}/documents/${documentId}`, { schema: 'old' })).status).toBe(400);
    });
  });

  describe('change request changes and contributors', () => {
    it('lists what the change request changes against its base, and who edited it', async () => {
      const cr = await createChangeRequest(alice, spaceId, { subject: 'Two editors' });
      const base = `/v1/spaces/${spaceId}/change-requests/${cr.id}`;
      expect((await reader.client.get(`${base}/changes`)).body).toEqual({ changes: [] });
      expect((await reader.client.get(`${base}/contributors`)).body).toEqual({ items: [], count: 0 });

      t.clock.advance(1000);
      await editor.client.must.post(`${base}/content`, { changes: [{ operation: 'update_page', page: 'intro-page', title: 'Welcome' }] });
      t.clock.advance(1000);
      await editor.client.must.post(`${base}/content`, { changes: [{ operation: 'delete_page', page: 'api-page' }] });
      t.clock.advance(1000);
      await alice.client.must.post(`${base}/content`, { changes: [{ operation: 'update_page', page: 'install-page', document: { markdown: 'Install it twice.\n' } }] });

      const changes = await reader.client.get(`${base}/changes`);
      expect(changes.status).toBe(200);
      expect(changes.body.changes).toEqual([
        { type: 'page_edited', page: expect.objectContaining({ id: 'intro-page', title: 'Welcome' }), attributes: { title: { before: 'Introduction', after: 'Welcome' } } },
        {
          type: 'page_edited',
          page: expect.objectContaining({ id: 'install-page' }),
          attributes: { document: { before: documentHash('Install it.\n'), after: expect.any(String) } },
        },
        { type: 'page_deleted', page: { id: 'api-page', type: 'document', title: 'API', path: 'api' } },
      ]);
      expect((await reader.client.get(`${base}/changes`, { limit: 1 })).body.more).toBe(2);

      const contributors = await reader.client.get(`${base}/contributors`);
      expect(contributors.status).toBe(200);
      const byUser = Object.fromEntries(contributors.body.items.map((c: { user: { id: string } }) => [c.user.id, c]));
      expect(contributors.body.count).toBe(2);
      expect(byUser[editor.id]).toMatchObject({ count: 2, actionType: 'edit', updatedAt: '2026-01-15T10:00:02.000Z' });
      expect(byUser[alice.id]).toMatchObject({ count: 1, actionType: 'edit' });

      for (const suffix of ['/changes', '/contributors']) {
        expect((await alice.client.get(`/v1/spaces/${otherSpaceId}/change-requests/${cr.id}${suffix}`)).status).toBe(404);
        expect((await mallory.client.get(`${base}${suffix}`)).status).toBe(404);
      }
    });
  });

  describe('commenters', () => {
    it('lists who commented on the space content and on a change request, separately, page by page', async () => {
      const cr = await createChangeRequest(alice, spaceId, { subject: 'Discussed' });
      await postComment(alice, `/v1/spaces/${spaceId}/comments`);
      const thread = await postComment(editor, `/v1/spaces/${spaceId}/comments`);
      const reply = await editor.client.post(`/v1/spaces/${spaceId}/comments/${thread.id}/replies`, { body: { markdown: 'Me again' } });
      expect(reply.status).toBe(200);
      await postComment(editor, `/v1/spaces/${spaceId}/change-requests/${cr.id}/comments`);

      const inSpace = await reader.client.get(`/v1/spaces/${spaceId}/commenters`);
      expect(inSpace.status).toBe(200);
      expect(inSpace.body.count).toBe(2);
      expect(inSpace.body.items.map((m: { id: string }) => m.id)).toEqual([alice.id, editor.id].sort());
      expect(inSpace.body.items[0]).toMatchObject({ object: 'member', user: { email: expect.any(String) } });

      const first = await reader.client.get(`/v1/spaces/${spaceId}/commenters`, { limit: 1 });
      expect(first.body.items).toHaveLength(1);
      const second = await reader.client.get(`/v1/spaces/${spaceId}/commenters`, { limit: 1, page: first.body.next.page });
      expect([first.body.items[0].id, second.body.items[0].id]).toEqual([alice.id, editor.id].sort());
      expect(second.body.next).toBeUndefined();

      const inCr = await reader.client.get(`/v1/spaces/${spaceId}/change-requests/${cr.id}/commenters`);
      expect(inCr.body.items.map((m: { id: string }) => m.id)).toEqual([editor.id]);
      expect((await mallory.client.get(`/v1/spaces/${spaceId}/commenters`)).status).toBe(404);
      expect((await alice.client.get(`/v1/spaces/${otherSpaceId}/change-requests/${cr.id}/commenters`)).status).toBe(404);
    });
  });

  describe('GET /users/{userId}', () => {
    it("answers for users sharing an organization (e-mail for non-guests), where every user's urls.location points", async () => {
      const me = await reader.client.get('/v1/user');
      const self = await reader.client.get(new URL(me.body.urls.location).pathname);
      expect(self.status).toBe(200);
      expect(self.body).toEqual(me.body);

      const seen = await reader.client.get(`/v1/users/${alice.id}`);
      expect(seen.body).toMatchObject({ object: 'user', id: alice.id, displayName: 'Alice', email: alice.email });
      const byGuest = await guest.client.get(`/v1/users/${alice.id}`);
      expect(byGuest.status).toBe(200);
      expect(byGuest.body.email).toBeUndefined();
      expect(byGuest.body.displayName).toBe('Alice');

      expect((await mallory.client.get(`/v1/users/${alice.id}`)).status).toBe(404);
      expect((await alice.client.get(`/v1/users/${mallory.id}`)).status).toBe(404);
      expect((await alice.client.get('/v1/users/nobody')).status).toBe(404);
    });
  });

  describe('createSpace with a template', () => {
    const titles = async (user: TestUser, id: string) =>
      (await user.client.get(`/v1/spaces/${id}/content/pages`)).body.pages.map((p: { title: string; pages?: { title: string }[] }) => [p.title, (p.pages ?? []).map((c) => c.title)]);

    it('starts from a built-in template, or blank for an id this server does not know', async () => {
      const res = await alice.client.post(`/v1/orgs/${org}/spaces`, { title: 'From template', template: { id: 'getting-started' } });
      expect(res.status).toBe(201);
      expect(await titles(alice, res.body.id)).toEqual([['Getting started', ['Installation', 'Quickstart', 'Configuration']]]);

      const api = await alice.client.post(`/v1/orgs/${org}/spaces`, {
        template: { id: 'api-reference', params: { contentRefs: { spec: { kind: 'url', url: 'https://example.com/openapi.json' } } } },
      });
      expect(api.status).toBe(201);
      expect(JSON.stringify((await alice.client.get(`/v1/spaces/${api.body.id}/content/pages`)).body)).toContain('https://example.com/openapi.json');

      const unknown = await alice.client.post(`/v1/orgs/${org}/spaces`, { template: { id: 'gitbook-product-docs', params: { anything: 1 } } });
      expect(unknown.status).toBe(201);
      expect(await titles(alice, unknown.body.id)).toEqual([['Untitled', []]]);
    });

    it('refuses a template with `empty`, a malformed template or bad params, creating nothing', async () => {
      const before = (await alice.client.get(`/v1/orgs/${org}/spaces`, { limit: 100 })).body.count;
      for (const body of [
        { template: { id: 'faq' }, empty: true },
        { template: { name: 'faq' } },
        { template: 'faq' },
        { template: { id: '' } },
        { template: { id: 'api-reference', params: { contentRefs: { spec: { kind: 'url', url: 'ftp://x' } } } } },
      ]) {
        const res = await alice.client.post(`/v1/orgs/${org}/spaces`, body);
        expect(res.status).toBe(400);
      }
      expect((await alice.client.get(`/v1/orgs/${org}/spaces`, { limit: 100 })).body.count).toBe(before);
      expect((await reader.client.post(`/v1/orgs/${org}/spaces`, { template: { id: 'faq' } })).status).toBe(403);
    });
  });
});
