import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestApp, TestUser } from '@app/testing';
import { ChangeRequestsService } from '../src/modules/change-requests/application/change-requests.service';
import { documentHash } from '../src/modules/content/domain/document-hash';
import { RevisionFile } from '../src/modules/content/domain/revision-content';
import { IdentityService } from '../src/modules/identity/application/identity.service';
import { buildContent, commitContent, download, png, storeFile } from './content.fixtures';
import { space, walk } from './spaces.fixtures';

describe('change request content reads', () => {
  let t: TestApp;
  let filesDir: string;
  let alice: TestUser; // org admin
  let reader: TestUser; // read role
  let guest: TestUser; // guest without access
  let mallory: TestUser; // admin of another organization
  let org: string;
  let spaceId: string;
  let otherSpaceId: string;
  let cr: { id: string; number: number };
  let otherCr: { id: string; number: number };
  let baseRevision: string;
  let headRevision: string;
  let image: RevisionFile;

  async function createChangeRequest(user: TestUser, id: string, subject: string) {
    const res = await user.client.post(`/v1/spaces/${id}/change-requests`, { subject });
    if (res.status !== 201) throw new Error(`change request not created: ${res.status} ${JSON.stringify(res.body)}`);
    return { id: res.body.id as string, number: res.body.number as number };
  }

  beforeAll(async () => {
    filesDir = await mkdtemp(join(tmpdir(), 'cr-content-e2e-'));
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
    baseRevision = (
      await commitContent(t, spaceId, [
        { id: 'guide-page', title: 'Guide', slug: 'guide', body: '# Guide\n\nOld text.\n', pages: [{ id: 'install-page', title: 'Install', slug: 'install', body: 'Install.\n' }] },
      ])
    ).id;
    cr = await createChangeRequest(alice, spaceId, 'Rewrite the guide');

    // Edit the change request's content: a new body for the guide, a new nested page and a file.
    image = await storeFile(t, png(4, 7), 'shot.png', 'image/png');
    const aliceUser = await t.get<IdentityService>(IdentityService).getUser(alice.id);
    const edited = await t.get<ChangeRequestsService>(ChangeRequestsService).commitEdit(aliceUser, spaceId, cr.id, async (head) => {
      const { content, documents } = buildContent([
        {
          id: 'guide-page',
          title: 'Guide',
          slug: 'guide',
          body: '# Guide\n\nNew text with a [link](/pages/faq-page).\n\n- a\n- b\n',
          description: 'Rewritten',
          pages: [
            { id: 'install-page', title: 'Install', slug: 'install', body: 'Install.\n' },
            { id: 'faq-page', title: 'FAQ', slug: 'faq', body: '## Questions\n\n```sh\nnpm test\n```\n' },
          ],
        },
      ], [image]);
      expect(head.id).toBe(baseRevision);
      expect(documents.has(documentHash('Install.\n'))).toBe(true);
      return { content, documents };
    });
    headRevision = edited.revision.id;

    otherSpaceId = await space(alice, org, { title: 'Other' });
    otherCr = await createChangeRequest(alice, otherSpaceId, 'Elsewhere');
  });
  afterAll(async () => {
    await t.close();
    await rm(filesDir, { recursive: true, force: true });
  });

  const base = (ref: string | number = cr.id) => `/v1/spaces/${spaceId}/change-requests/${ref}/content`;

  describe('GET .../change-requests/{changeRequestId}/content', () => {
    it("gives the change request's head revision, by id or by number", async () => {
      const res = await reader.client.get(base());
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        object: 'revision',
        id: headRevision,
        parents: [baseRevision],
        type: 'edits',
        urls: { app: `http://docs.test/app/s/${spaceId}/~/changes/${cr.number}` },
      });
      expect(res.body.files).toEqual([expect.objectContaining({ id: image.id, name: 'shot.png', dimensions: { width: 4, height: 7 } })]);
      const byNumber = await reader.client.get(base(cr.number));
      expect(byNumber.status).toBe(200);
      expect(byNumber.body).toEqual(res.body);
      expect((await reader.client.get(base(), { metadata: 'false', computed: 'true' })).body).toEqual(res.body);
    });

    it('leaves the space content untouched', async () => {
      const space = await reader.client.get(`/v1/spaces/${spaceId}/content`);
      expect(space.body.id).toBe(baseRevision);
      expect(space.body.pages[0].pages.map((p: any) => p.id)).toEqual(['install-page']);
      expect(space.body.files).toEqual([]);
    });

    it("gives a new change request's head: the space revision it started from", async () => {
      const fresh = await createChangeRequest(alice, spaceId, 'Nothing yet');
      const res = await reader.client.get(base(fresh.number));
      expect(res.status).toBe(200);
      expect(res.body.id).toBe(baseRevision);
      expect(res.body.urls.app).toBe(`http://docs.test/app/s/${spaceId}/~/changes/${fresh.number}`);
    });
  });

  describe('GET .../content/pages', () => {
    it('gives the edited tree with paths and change request app URLs', async () => {
      const res = await reader.client.get(`${base()}/pages`);
      expect(res.status).toBe(200);
      const [guide] = res.body.pages;
      expect(guide).toMatchObject({ id: 'guide-page', path: 'guide', description: 'Rewritten', urls: { app: `http://docs.test/app/s/${spaceId}/~/changes/${cr.number}/guide` } });
      expect(guide.pages.map((p: any) => [p.id, p.path])).toEqual([
        ['install-page', 'guide/install'],
        ['faq-page', 'guide/faq'],
      ]);
      expect(guide.pages[1].urls.app).toBe(`http://docs.test/app/s/${spaceId}/~/changes/${cr.number}/guide/faq`);
    });
  });

  describe('GET .../content/page/{pageId}', () => {
    it('answers the edited page as a document and as markdown', async () => {
      const doc = await reader.client.get(`${base()}/page/guide-page`);
      expect(doc.status).toBe(200);
      expect(doc.body.document.nodes.map((n: any) => n.type)).toEqual(['heading-1', 'paragraph', 'list-unordered']);
      expect(JSON.stringify(doc.body.document)).toContain('"ref":{"kind":"page","page":"faq-page"}');
      const md = await reader.client.get(`${base(cr.number)}/page/guide-page`, { format: 'markdown', evaluated: 'deterministic-only' });
      expect(md.status).toBe(200);
      expect(md.body.markdown).toBe('---\ndescription: Rewritten\n---\n\n# Guide\n\nNew text with a [link](/pages/faq-page).\n\n- a\n- b\n');
      const faq = await reader.client.get(`${base()}/page/faq-page`);
      expect(faq.body).toMatchObject({ path: 'guide/faq', document: { nodes: [expect.objectContaining({ type: 'heading-2' }), expect.objectContaining({ type: 'code' })] } });
    });

    it('answers 404 for a page only the change request has when read from the space, and for unknown pages', async () => {
      expect((await reader.client.get(`/v1/spaces/${spaceId}/content/page/faq-page`)).status).toBe(404);
      expect((await reader.client.get(`${base()}/page/nope`)).status).toBe(404);
      const otherPage = (await alice.client.get(`/v1/spaces/${otherSpaceId}/content/pages`)).body.pages[0].id;
      expect((await reader.client.get(`${base()}/page/${otherPage}`)).status).toBe(404);
    });
  });

  describe('GET .../content/files and .../content/files/{fileId}', () => {
    it('lists and gives the files of the head, with working download URLs', async () => {
      const list = await reader.client.get(`${base()}/files`);
      expect(list.status).toBe(200);
      expect(list.body).toEqual({ items: [expect.objectContaining({ id: image.id, contentType: 'image/png', size: png(4, 7).length })], count: 1 });
      expect((await walk(reader, `${base()}/files`, 1)).items.map((f: any) => f.id)).toEqual([image.id]);
      const one = await reader.client.get(`${base(cr.number)}/files/${image.id}`);
      expect(one.status).toBe(200);
      expect(one.body).toEqual(list.body.items[0]);
      const fetched = await download(t, one.body.downloadURL);
      expect(Buffer.compare(fetched.body, png(4, 7))).toBe(0);
      expect((await reader.client.get(`${base()}/files/nope`)).status).toBe(404);
      expect((await reader.client.get(`/v1/spaces/${spaceId}/content/files/${image.id}`)).status).toBe(404);
    });
  });

  describe('access', () => {
    const paths = () => [
      base(),
      `${base()}/pages`,
      `${base()}/files`,
      `${base()}/files/${image.id}`,
      `${base()}/page/guide-page`,
      `${base(cr.number)}/page/guide-page?format=markdown`,
    ];

    it('answers 404 on every path to members of another organization and to guests without access', async () => {
      for (const path of paths()) {
        for (const caller of [mallory, guest]) {
          const res = await caller.client.get(path);
          expect({ path, status: res.status }).toEqual({ path, status: 404 });
        }
        expect((await reader.client.get(path)).status).toBe(200);
      }
    });

    it('answers 404 for unknown change requests and for those of another space, by id or number', async () => {
      for (const ref of ['nope', '999', otherCr.id]) {
        for (const suffix of ['', '/pages', '/files', `/files/${image.id}`, '/page/guide-page']) {
          const res = await alice.client.get(`${base(ref)}${suffix}`);
          expect({ ref, suffix, status: res.status }).toEqual({ ref, suffix, status: 404 });
        }
      }
      // The other space's change request is readable under its own space.
      expect((await alice.client.get(`/v1/spaces/${otherSpaceId}/change-requests/${otherCr.id}/content`)).status).toBe(200);
    });
  });

  describe('after the change request is merged', () => {
    it("the space content is the merged revision: the change request's pages and files", async () => {
      expect((await alice.client.patch(`/v1/spaces/${spaceId}/change-requests/${cr.id}`, { status: 'open' })).status).toBe(200);
      const merged = await alice.client.post(`/v1/spaces/${spaceId}/change-requests/${cr.id}/merge`);
      expect(merged.status).toBe(200);
      const content = await reader.client.get(`/v1/spaces/${spaceId}/content`);
      expect(content.status).toBe(200);
      expect(content.body.id).toBe(merged.body.revision);
      expect(content.body.parents).toEqual([baseRevision, headRevision]);
      expect(content.body.pages[0].pages.map((p: any) => p.path)).toEqual(['guide/install', 'guide/faq']);
      expect(content.body.files.map((f: any) => f.id)).toEqual([image.id]);
      const page = await reader.client.get(`/v1/spaces/${spaceId}/content/page/faq-page`, { format: 'markdown' });
      expect(page.body.markdown).toBe('## Questions\n\n```sh\nnpm test\n```\n');
      // The merged change request's own content is still its head.
      expect((await reader.client.get(base())).body.id).toBe(headRevision);
    });
  });

  describe('bad query values', () => {
    it.each([
      ['/page/guide-page', { format: 'xml' }, 'format'],
      ['/page/guide-page', { evaluated: 'sometimes' }, 'evaluated'],
      ['/page/guide-page', { computed: 'no' }, 'computed'],
      ['', { metadata: 'no' }, 'metadata'],
      ['/pages', { extra: '1' }, 'extra'],
      ['/files', { limit: '1001' }, 'limit'],
      ['/files', { page: '%%%' }, 'page'],
      [`/files/x`, { metadata: '2' }, 'metadata'],
    ])('%s with %j -> 400 naming %s', async (suffix, query, name) => {
      const res = await reader.client.get(`${base()}${suffix}`, query);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain(name);
    });
  });
});
