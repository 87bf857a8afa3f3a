import { TestApp, TestUser } from '@app/testing';
import { ContentStore } from '../src/modules/content/application/content-store.service';
import { extractLinks } from '../src/modules/content/domain/markdown';
import { PageNode } from '../src/modules/content/domain/revision-content';
import { space } from './spaces.fixtures';

describe('templates (POST /spaces/{spaceId}/content/template)', () => {
  let t: TestApp;
  let alice: TestUser; // org admin
  let editor: TestUser; // edit role
  let reader: TestUser; // read role
  let mallory: TestUser; // admin of another organization
  let org: string;

  beforeAll(async () => {
    t = await TestApp.start();
    alice = await t.user('Alice');
    editor = await t.user('Eddie');
    reader = await t.user('Rita');
    mallory = await t.user('Mallory');
    org = await t.organization(alice, [
      [editor, 'edit'],
      [reader, 'read'],
    ]);
    await t.organization(mallory, [], 'Other Org');
  });
  afterAll(() => t.close());

  const apply = (user: TestUser, spaceId: string, body: unknown) => user.client.post(`/v1/spaces/${spaceId}/content/template`, body);
  const spaceHead = async (spaceId: string) => (await t.dataSource.query('SELECT revision_id FROM spaces WHERE id = $1', [spaceId]))[0].revision_id as string;
  const revision = async (id: string) => (await t.get<ContentStore>(ContentStore).get(id))!;
  const shape = (pages: PageNode[]): unknown[] => pages.map((p) => (p.pages.length ? { [p.title]: shape(p.pages) } : p.title));

  it.each([
    ['blank-page', ['Untitled']],
    ['getting-started', [{ 'Getting started': ['Installation', 'Quickstart', 'Configuration'] }]],
    ['api-reference', [{ 'API reference': ['Authentication', 'Errors', 'Pagination'] }]],
    ['faq', ['FAQ']],
  ])('%s: its pages become a new revision of the space (type template), after the existing page', async (id, pages) => {
    const spaceId = await space(alice, org, { title: id });
    const before = await spaceHead(spaceId);
    const res = await apply(editor, spaceId, { id });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({});
    expect(res.headers['content-length']).toBe('0');

    const head = await revision(await spaceHead(spaceId));
    expect(head).toMatchObject({ parents: [before], type: 'template', createdBy: editor.id });
    expect(shape(head.content.pages)).toEqual(['Untitled', ...pages]);
    // Links between the template's pages are page references to them.
    const ids = new Set<string>();
    const collect = (list: PageNode[]) => list.forEach((p) => (ids.add(p.id), collect(p.pages)));
    collect(head.content.pages);
    const hashes = head.content.pages.slice(1).flatMap(function all(p: PageNode): string[] {
      return [p.documentHash!, ...p.pages.flatMap(all)];
    });
    const bodies = await t.get<ContentStore>(ContentStore).loadDocuments(hashes);
    expect(bodies.size).toBe(new Set(hashes).size);
    for (const body of bodies.values()) {
      for (const link of extractLinks(body)) expect(link.ref.kind === 'page' ? ids.has(link.ref.page) : link.ref.kind).toBe(true);
    }
    // Readable through the content API.
    const read = await reader.client.get(`/v1/spaces/${spaceId}/content/pages`);
    expect(read.status).toBe(200);
    expect(read.body.pages).toHaveLength(2);
  });

  it('the pages a template puts into the space are searchable at once', async () => {
    const spaceId = await space(alice, org, { title: 'Search' });
    expect((await apply(editor, spaceId, { id: 'getting-started' })).status).toBe(201);
    const res = await reader.client.get(`/v1/spaces/${spaceId}/search`, { query: 'quickstart' });
    expect(res.status).toBe(200);
    expect(res.body.items.map((item: any) => item.title)).toContain('Quickstart');
  });

  it('applies into a change request (by id or number) without touching the space', async () => {
    const spaceId = await space(alice, org, { title: 'CR' });
    const before = await spaceHead(spaceId);
    const cr = (await alice.client.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'FAQ' })).body;
    const res = await apply(editor, spaceId, { id: 'faq', changeRequestId: cr.id });
    expect(res.status).toBe(201);
    expect(await spaceHead(spaceId)).toBe(before);
    const got = await reader.client.get(`/v1/spaces/${spaceId}/change-requests/${cr.id}`);
    expect(got.body.revision).not.toBe(cr.revision);
    const head = await revision(got.body.revision);
    expect(head).toMatchObject({ parents: [cr.revision], type: 'edits' });
    expect(shape(head.content.pages)).toEqual(['Untitled', 'FAQ']);

    expect((await apply(editor, spaceId, { id: 'blank-page', changeRequestId: String(cr.number) })).status).toBe(201);
    const again = await reader.client.get(`/v1/spaces/${spaceId}/change-requests/${cr.id}`);
    expect(shape((await revision(again.body.revision)).content.pages)).toEqual(['Untitled', 'FAQ', 'Untitled']);
    expect((await revision(again.body.revision)).content.pages.map((p) => p.slug)).toEqual(['untitled', 'faq', 'untitled-2']);
  });

  it('takes the spec URL of api-reference', async () => {
    const spaceId = await space(alice, org, { title: 'API', empty: true });
    const res = await apply(editor, spaceId, { id: 'api-reference', params: { contentRefs: { spec: { kind: 'url', url: 'https://example.com/openapi.yaml' } } } });
    expect(res.status).toBe(201);
    const page = (await reader.client.get(`/v1/spaces/${spaceId}/content/pages`)).body.pages[0];
    const md = await reader.client.get(`/v1/spaces/${spaceId}/content/page/${page.id}`, { format: 'markdown' });
    expect(md.body.markdown).toContain('[here](https://example.com/openapi.yaml)');
  });

  it.each([
    ['id: unknown template "nope"; built-in templates: "blank-page", "getting-started", "api-reference", "faq"', { id: 'nope' }],
    ['id: must be a string', { id: 5 }],
    ['id: must be longer than or equal to 1 characters', {}],
    ['extra: property extra should not exist', { id: 'faq', extra: true }],
    ['params: must be an object', { id: 'faq', params: 'x' }],
    ['params.other: property should not exist', { id: 'faq', params: { other: 1 } }],
    ['params.contentRefs.spec: template "faq" takes no content references', { id: 'faq', params: { contentRefs: { spec: { kind: 'url', url: 'https://e.com' } } } }],
    ['params.contentRefs.spec.kind: must be one of', { id: 'api-reference', params: { contentRefs: { spec: { kind: 'nope' } } } }],
    ['changeRequestId: must be a string', { id: 'faq', changeRequestId: 7 }],
    ['id: must be shorter than or equal to 100 characters', { id: 'x'.repeat(101) }],
  ])('bad input is a 400 and writes nothing: %s', async (message, body) => {
    const spaceId = await space(alice, org, { title: 'Bad' });
    const before = await spaceHead(spaceId);
    const res = await apply(editor, spaceId, body);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain(message);
    expect(await spaceHead(spaceId)).toBe(before);
  });

  it('read members get 403, other organizations 404, change requests of other spaces 404', async () => {
    const spaceId = await space(alice, org, { title: 'Access' });
    const before = await spaceHead(spaceId);
    expect((await apply(reader, spaceId, { id: 'faq' })).status).toBe(403);
    expect((await apply(mallory, spaceId, { id: 'faq' })).status).toBe(404);
    expect((await apply(editor, 'nope', { id: 'faq' })).status).toBe(404);
    const otherSpace = await space(alice, org, { title: 'Other' });
    const foreign = (await alice.client.post(`/v1/spaces/${otherSpace}/change-requests`, {})).body;
    expect((await apply(editor, spaceId, { id: 'faq', changeRequestId: foreign.id })).status).toBe(404);
    expect((await apply(editor, spaceId, { id: 'faq', changeRequestId: 'nope' })).status).toBe(404);
    expect(await spaceHead(spaceId)).toBe(before);
    const mallorySpace = await space(mallory, (await mallory.client.get('/v1/orgs')).body.items[0].id, { title: 'M' });
    const cr = (await alice.client.post(`/v1/spaces/${spaceId}/change-requests`, {})).body;
    expect((await apply(mallory, mallorySpace, { id: 'faq', changeRequestId: cr.id })).status).toBe(404);
    expect((await reader.client.get(`/v1/spaces/${spaceId}/change-requests/${cr.id}`)).body.revision).toBe(cr.revision);
  });

  it('a locked space refuses templates (423), into the space and into its change requests', async () => {
    const spaceId = await space(alice, org, { title: 'Locked' });
    const cr = (await alice.client.post(`/v1/spaces/${spaceId}/change-requests`, {})).body;
    const before = await spaceHead(spaceId);
    expect((await alice.client.patch(`/v1/spaces/${spaceId}`, { editMode: 'locked' })).status).toBe(200);
    for (const body of [{ id: 'faq' }, { id: 'faq', changeRequestId: cr.id }]) {
      for (const user of [editor, alice]) {
        const res = await apply(user, spaceId, body);
        expect(res.status).toBe(423);
        expect(res.body.error.message).toContain('locked');
      }
    }
    expect(await spaceHead(spaceId)).toBe(before);
    expect((await reader.client.get(`/v1/spaces/${spaceId}/change-requests/${cr.id}`)).body.revision).toBe(cr.revision);
    expect((await alice.client.patch(`/v1/spaces/${spaceId}`, { editMode: 'live' })).status).toBe(200);
    expect((await apply(editor, spaceId, { id: 'faq' })).status).toBe(201);
  });
});
