import request from 'supertest';
import { TestApp, TestUser } from '@app/testing';
import { commitContent } from './content.fixtures';

/** ETag / If-None-Match on reads and If-Match on writes of spaces, sites, change requests and pages. */
describe('conditional requests', () => {
  let t: TestApp;
  let alice: TestUser;
  let rita: TestUser;
  let org: string;
  let spaceId: string;
  const http = (user: TestUser) => ({
    get: (path: string, headers: Record<string, string> = {}) => request(t.app.getHttpServer()).get(path).set({ authorization: `Bearer ${user.token}`, ...headers }),
    patch: (path: string, body: object, headers: Record<string, string> = {}) => request(t.app.getHttpServer()).patch(path).set({ authorization: `Bearer ${user.token}`, ...headers }).send(body),
    post: (path: string, body: object, headers: Record<string, string> = {}) => request(t.app.getHttpServer()).post(path).set({ authorization: `Bearer ${user.token}`, ...headers }).send(body),
  });

  beforeAll(async () => {
    t = await TestApp.start();
    [alice, rita] = [await t.user('Alice'), await t.user('Rita')];
    org = await t.organization(alice, [[rita, 'read']]);
    spaceId = (await alice.client.post<any>(`/v1/orgs/${org}/spaces`, { title: 'Tagged' })).body.id;
  });
  afterAll(() => t.close());

  it('spaces: 304 while unchanged, 412 for a stale If-Match (nothing written), the new tag on success', async () => {
    const read = await http(alice).get(`/v1/spaces/${spaceId}`);
    const tag = read.headers.etag;
    expect(tag).toMatch(/^"space\./);
    const again = await http(alice).get(`/v1/spaces/${spaceId}`, { 'If-None-Match': tag });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    // another caller's view shows other permissions: another tag
    expect((await http(rita).get(`/v1/spaces/${spaceId}`)).headers.etag).not.toBe(tag);

    const first = await http(alice).patch(`/v1/spaces/${spaceId}`, { title: 'First' }, { 'If-Match': tag });
    expect(first.status).toBe(200);
    expect(first.headers.etag).not.toBe(tag);
    const stale = await http(alice).patch(`/v1/spaces/${spaceId}`, { title: 'Lost update' }, { 'If-Match': tag });
    expect(stale.status).toBe(412);
    expect(stale.body.error).toEqual({ code: 412, message: expect.stringContaining('If-Match') });
    expect((await alice.client.get<any>(`/v1/spaces/${spaceId}`)).body.title).toBe('First');
    // a reader's tag names the same version: it is good for a write too
    const riteTag = (await http(rita).get(`/v1/spaces/${spaceId}`)).headers.etag;
    expect((await http(alice).patch(`/v1/spaces/${spaceId}`, { title: 'Second' }, { 'If-Match': riteTag })).status).toBe(200);
    expect((await http(alice).patch(`/v1/spaces/${spaceId}`, { title: 'Third' }, { 'If-Match': '*' })).status).toBe(200);
    expect((await http(alice).patch(`/v1/spaces/${spaceId}`, { title: 'Fourth' })).status).toBe(200);
    expect((await http(alice).get(`/v1/spaces/${spaceId}`, { 'If-None-Match': tag })).status).toBe(200);
  });

  it('sites: the same, and a structure change moves the tag', async () => {
    const site = (await alice.client.post<any>(`/v1/orgs/${org}/sites`, { title: 'Tagged site', spaces: [spaceId] })).body.id;
    const path = `/v1/orgs/${org}/sites/${site}`;
    const tag = (await http(alice).get(path)).headers.etag;
    expect((await http(alice).get(path, { 'If-None-Match': tag })).status).toBe(304);
    await alice.client.must.post(`${path}/sections`, { spaceId, title: 'More' });
    expect((await http(alice).get(path, { 'If-None-Match': tag })).status).toBe(200);
    expect((await http(alice).patch(path, { title: 'Stale' }, { 'If-Match': tag })).status).toBe(412);
    const current = (await http(alice).get(path)).headers.etag;
    const written = await http(alice).patch(path, { title: 'Fresh' }, { 'If-Match': current });
    expect(written.status).toBe(200);
    expect((await http(alice).get(path, { 'If-None-Match': written.headers.etag })).status).toBe(304);
  });

  it('change requests: PATCH and merge refuse a stale If-Match; the merge goes through with the current one', async () => {
    const cr = (await alice.client.post<any>(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Draft' })).body;
    const path = `/v1/spaces/${spaceId}/change-requests/${cr.id}`;
    const tag = (await http(alice).get(path)).headers.etag;
    expect((await http(alice).get(path, { 'If-None-Match': tag })).status).toBe(304);
    expect((await http(alice).patch(path, { subject: 'Renamed' }, { 'If-Match': tag })).status).toBe(200);
    expect((await http(alice).patch(path, { subject: 'Lost' }, { 'If-Match': tag })).status).toBe(412);
    const merged = await http(alice).post(`${path}/merge`, {}, { 'If-Match': tag });
    expect(merged.status).toBe(412);
    expect((await alice.client.get<any>(path)).body.status).not.toBe('merged');
    // content writes: the change request's tag, and the new one in the answer
    const before = (await http(alice).get(path)).headers.etag;
    const edit = { changes: [{ operation: 'insert_page', title: 'Added', document: { markdown: 'Hello' } }] };
    const edited = await http(alice).post(`${path}/content`, edit, { 'If-Match': before });
    expect(edited.status).toBe(200);
    expect((await http(alice).post(`${path}/content`, edit, { 'If-Match': before })).status).toBe(412);
    expect((await http(alice).post(`${path}/content`, edit, { 'If-Match': edited.headers.etag })).status).toBe(200);
    const current = (await http(alice).get(path)).headers.etag;
    expect((await http(alice).post(`${path}/merge`, {}, { 'If-Match': current })).status).toBe(200);
    expect((await alice.client.get<any>(path)).body.status).toBe('merged');
  });

  it('are declared in the served OpenAPI document', async () => {
    const doc = (await request(t.app.getHttpServer()).get('/openapi.json')).body;
    for (const path of ['/spaces/{spaceId}', '/orgs/{organizationId}/sites/{siteId}', '/spaces/{spaceId}/change-requests/{changeRequestId}']) {
      expect(doc.paths[path].get.responses['304']).toBeDefined();
      expect(doc.paths[path].get.parameters.map((p: any) => p.name)).toContain('If-None-Match');
      expect(doc.paths[path].patch.parameters.map((p: any) => p.name)).toContain('If-Match');
      expect(doc.paths[path].patch.responses['412']).toBeDefined();
    }
    expect(doc.paths['/spaces/{spaceId}/content/page/{pageId}'].get.responses['304']).toBeDefined();
    expect(doc.paths['/spaces/{spaceId}/change-requests/{changeRequestId}/merge'].post.parameters.map((p: any) => p.name)).toContain('If-Match');
  });

  it('content trees: served from the cache of presented trees, tagged by revision and scope, 304 while unchanged', async () => {
    await commitContent(t, spaceId, [{ id: 'tree-a', title: 'Tree A', slug: 'tree-a', body: 'Alpha' }]);
    const path = `/v1/spaces/${spaceId}/content`;
    const first = await http(rita).get(path);
    expect(first.status).toBe(200);
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(first.body).toMatchObject({ object: 'revision', pages: [{ id: 'tree-a', markdown: 'Alpha', urls: { app: expect.stringContaining(`/s/${spaceId}/tree-a`) } }] });
    const tag = first.headers.etag;
    expect(tag).toMatch(/^W\/"/);
    // the second read (from the cache) is the same answer, byte for byte
    const again = await http(rita).get(path);
    expect(again.text).toBe(first.text);
    expect(again.headers.etag).toBe(tag);
    const notModified = await http(rita).get(path, { 'If-None-Match': tag });
    expect(notModified.status).toBe(304);
    expect(notModified.text).toBe('');
    expect(Object.keys(JSON.parse(first.text))).toEqual(['object', 'id', 'parents', 'type', 'pages', 'files', 'reusableContents', 'variables', 'tags', 'createdAt', 'urls']);

    // the same revision read as a change request's head: its own URLs, its own tag
    const cr = (await alice.client.post<any>(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Same tree' })).body;
    const head = await http(rita).get(`/v1/spaces/${spaceId}/change-requests/${cr.id}/content/pages`);
    expect(head.body.pages[0].urls.app).toContain(`/s/${spaceId}/~/changes/${cr.number}/tree-a`);
    expect((await http(rita).get(`/v1/spaces/${spaceId}/change-requests/${cr.id}/content`)).body.id).toBe(first.body.id);
    expect((await http(rita).get(`/v1/spaces/${spaceId}/content/pages`)).body.pages[0].urls.app).not.toContain('/~/changes/');
    const pastRevision = await http(rita).get(`/v1/spaces/${spaceId}/revisions/${first.body.id}/pages`);
    expect(pastRevision.body.pages[0].urls.app).toContain(`/~/revisions/${first.body.id}/tree-a`);

    // a new revision: a new answer and a new tag
    await commitContent(t, spaceId, [{ id: 'tree-a', title: 'Tree A', slug: 'tree-a', body: 'Alpha, edited' }]);
    const changed = await http(rita).get(path, { 'If-None-Match': tag });
    expect(changed.status).toBe(200);
    expect(changed.body.pages[0].markdown).toBe('Alpha, edited');
    expect(changed.headers.etag).not.toBe(tag);
    // HEAD: the headers without the body
    const headOnly = await request(t.app.getHttpServer()).head(path).set({ authorization: `Bearer ${rita.token}` });
    expect(headOnly.status).toBe(200);
    expect(headOnly.headers.etag).toBe(changed.headers.etag);
  });

  it('pages: tagged by what they show, so edits of other pages leave a page 304', async () => {
    await commitContent(t, spaceId, [
      { id: 'one', title: 'One', slug: 'one', body: 'First body' },
      { id: 'two', title: 'Two', slug: 'two', body: 'Second body' },
    ]);
    const path = `/v1/spaces/${spaceId}/content/page/one`;
    const tag = (await http(rita).get(path)).headers.etag;
    expect(tag).toMatch(/^"page\.one\./);
    await commitContent(t, spaceId, [
      { id: 'one', title: 'One', slug: 'one', body: 'First body' },
      { id: 'two', title: 'Two', slug: 'two', body: 'Second body, edited' },
    ]);
    expect((await http(rita).get(path, { 'If-None-Match': tag })).status).toBe(304);
    await commitContent(t, spaceId, [
      { id: 'one', title: 'One', slug: 'one', body: 'First body, edited' },
      { id: 'two', title: 'Two', slug: 'two', body: 'Second body, edited' },
    ]);
    const changed = await http(rita).get(path, { 'If-None-Match': tag });
    expect(changed.status).toBe(200);
    expect(changed.body.document).toBeDefined();
  });
});
