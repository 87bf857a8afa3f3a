import request from 'supertest';
import { TestApp, TestUser, checkContract } from '@app/testing';
import { commitContent } from './content.fixtures';

/**
 * External links among a site's sections (addExternalLinkToSite, updateSiteExternalLinkById,
 * deleteSiteExternalLinkById): in the structure members read, ordered with sections and groups,
 * left out for readers when draft or when their condition fails, and shown as tabs on our reader pages.
 */
describe('Site external links (e2e)', () => {
  let t: TestApp;
  let alice: TestUser; // admin
  let rita: TestUser; // read
  let mallory: TestUser; // another organization
  let org: string;
  let otherOrg: string;
  let guides: string;
  let api: string;
  let siteId: string;
  let guidesSection: string;
  const sites = (o = org) => `/v1/orgs/${o}/sites`;
  const links = () => `${sites()}/${siteId}/external-links`;
  const structure = async (client = alice.client) => (await client.get<any>(`${sites()}/${siteId}/structure`)).body;
  const titles = (items: any[]): string[] => items.map((item) => item.title);

  beforeAll(async () => {
    t = await TestApp.start();
    [alice, rita, mallory] = [await t.user('Alice'), await t.user('Rita'), await t.user('Mallory')];
    org = await t.organization(alice, [[rita, 'read']]);
    otherOrg = await t.organization(mallory, [], 'Elsewhere');
    guides = (await alice.client.post<any>(`/v1/orgs/${org}/spaces`, { title: 'Guides' })).body.id;
    api = (await alice.client.post<any>(`/v1/orgs/${org}/spaces`, { title: 'API' })).body.id;
    await commitContent(t, guides, [{ id: 'intro', title: 'Introduction', slug: 'intro', body: 'Welcome.' }]);
    await commitContent(t, api, [{ id: 'ref', title: 'Reference', slug: 'ref', body: 'Endpoints.' }]);
    siteId = (await alice.client.post<any>(sites(), { title: 'Linked' })).body.id;
    await alice.client.must.patch(`${sites()}/${siteId}`, { basename: 'linked' });
  });
  afterAll(() => t.close());

  it('needs a site with sections', async () => {
    const refused = await alice.client.post<any>(links(), { title: 'Blog', url: 'https://blog.example.com/' });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toMatch(/sections/);
    guidesSection = (await alice.client.post<any>(`${sites()}/${siteId}/sections`, { spaceId: guides, title: 'Guides' })).body.id;
    await alice.client.must.post(`${sites()}/${siteId}/sections`, { spaceId: api, title: 'API' });
  });

  it('adds links at the root and in a group, ordered with the sections, and sorts them', async () => {
    const blog = await alice.client.post<any>(links(), { title: 'Blog', url: 'https://blog.example.com/', icon: 'pen', description: 'News' });
    expect(blog.status).toBe(201);
    expect(blog.headers.location).toBe(`http://docs.test/v1/orgs/${org}/sites/${siteId}/external-links/${blog.body.id}`);
    expect(blog.body).toEqual({ object: 'site-external-link', id: blog.body.id, title: 'Blog', url: 'https://blog.example.com/', icon: 'pen', description: 'News', draft: false });
    expect(titles((await structure()).structure)).toEqual(['Guides', 'API', 'Blog']);

    const group = (await alice.client.post<any>(`${sites()}/${siteId}/section-groups`, { title: 'Community' })).body.id;
    const forum = await alice.client.post<any>(links(), { title: 'Forum', url: 'https://forum.example.com/t?x=1', parent: group });
    expect(forum.body.sectionGroup).toBe(group);
    const root = (await structure(rita.client)).structure;
    expect(titles(root)).toEqual(['Guides', 'API', 'Blog', 'Community']);
    expect(root[3].children.map((c: any) => [c.object, c.title])).toEqual([['site-external-link', 'Forum']]);
    expect(root[3].sections).toEqual([]);

    // sortSiteStructure moves a link like any item of its level, and answers it.
    const sorted = await alice.client.patch<any>(`${sites()}/${siteId}/structure/sort`, { item: { type: 'site-external-link', id: blog.body.id }, position: { before: { type: 'site-section', id: guidesSection } } });
    expect(sorted.status).toBe(200);
    expect(sorted.body).toMatchObject({ object: 'site-external-link', id: blog.body.id });
    expect(titles((await structure()).structure)).toEqual(['Blog', 'Guides', 'API', 'Community']);
    const misplaced = await alice.client.patch<any>(`${sites()}/${siteId}/structure/sort`, { item: { type: 'site-external-link', id: forum.body.id }, position: { before: { type: 'site-section', id: guidesSection } } });
    expect(misplaced.status).toBe(400);

    // Moving to the root puts it last there; deleting its group moves it up too.
    const moved = await alice.client.patch<any>(`${links()}/${forum.body.id}`, { parent: null, title: 'Forums' });
    expect(moved.body).toMatchObject({ title: 'Forums', url: 'https://forum.example.com/t?x=1' });
    expect(moved.body.sectionGroup).toBeUndefined();
    expect(titles((await structure()).structure)).toEqual(['Blog', 'Guides', 'API', 'Community', 'Forums']);
    await alice.client.must.patch(`${links()}/${forum.body.id}`, { parent: group });
    expect((await alice.client.delete(`${sites()}/${siteId}/section-groups/${group}`)).status).toBe(205);
    expect(titles((await structure()).structure)).toEqual(['Blog', 'Guides', 'API', 'Forums']);
    expect((await alice.client.delete(`${links()}/${forum.body.id}`)).status).toBe(205);
    expect((await alice.client.delete(`${links()}/${forum.body.id}`)).status).toBe(204);
    expect(titles((await structure()).structure)).toEqual(['Blog', 'Guides', 'API']);
  });

  it('honours Prefer: return=minimal on its updates and on the structure writes GitBook marks', async () => {
    const blog = (await structure()).structure[0];
    const minimal = (method: 'patch' | 'post', path: string, body: object) =>
      request(t.app.getHttpServer())[method](path).set('Authorization', `Bearer ${alice.token}`).set('Prefer', 'return=minimal').send(body);
    const updated = await minimal('patch', `${links()}/${blog.id}`, { description: 'Our news' });
    expect([updated.status, updated.headers['preference-applied'], updated.text]).toEqual([204, 'return=minimal', '']);
    checkContract('patch', `${links()}/${blog.id}`, updated.status, undefined);
    expect((await structure()).structure[0].description).toBe('Our news');
    const sorted = await minimal('patch', `${sites()}/${siteId}/structure/sort`, { item: { type: 'site-external-link', id: blog.id } });
    expect([sorted.status, sorted.text]).toEqual([204, '']);
    expect(titles((await structure()).structure)).toEqual(['Guides', 'API', 'Blog']);
    const section = await minimal('patch', `${sites()}/${siteId}/sections/${guidesSection}`, { description: 'How-tos' });
    expect([section.status, section.headers['preference-applied']]).toEqual([204, 'return=minimal']);
    // Errors are answered as usual, and without the header the representation comes back.
    expect((await minimal('patch', `${links()}/${blog.id}`, { url: 'javascript:x' })).status).toBe(400);
    const full = await alice.client.patch<any>(`${sites()}/${siteId}/structure/sort`, { item: { type: 'site-external-link', id: blog.id }, position: { before: { type: 'site-section', id: guidesSection } } });
    expect(full.body).toMatchObject({ object: 'site-external-link', id: blog.id, description: 'Our news' });
  });

  it('refuses addresses that are not absolute web addresses, parents that are not groups, and bad fields', async () => {
    for (const url of ['javascript:alert(1)', 'ftp://files.example.com/', '/relative', 'https://user:secret@example.com/', 'data:text/html,hi', `https://x.example.com/${'a'.repeat(2048)}`, 42]) {
      const res = await alice.client.post<any>(links(), { title: 'Bad', url });
      expect([url, res.status]).toEqual([url, 400]);
      expect(res.body.error.message).toMatch(/url/);
    }
    expect((await alice.client.post(links(), { title: 'In a section', url: 'https://a.example.com/', parent: guidesSection })).status).toBe(400);
    expect((await alice.client.post(links(), { title: 'Nowhere', url: 'https://a.example.com/', parent: 'nope' })).status).toBe(400);
    expect((await alice.client.post(links(), { title: 'X', url: 'https://a.example.com/' })).status).toBe(400);
    expect((await alice.client.post(links(), { title: 'Cond', url: 'https://a.example.com/', condition: 'visitor.claims ==' })).status).toBe(400);
    expect((await alice.client.post(links(), { title: 'Draft', url: 'https://a.example.com/', draft: 'yes' })).status).toBe(400);
    expect(titles((await structure()).structure)).toEqual(['Blog', 'Guides', 'API']);
  });

  it('keeps other callers out: read members get 403, other organizations 404', async () => {
    const blog = (await structure()).structure[0];
    expect((await rita.client.post(links(), { title: 'Mine', url: 'https://a.example.com/' })).status).toBe(403);
    expect((await rita.client.patch(`${links()}/${blog.id}`, { title: 'Mine' })).status).toBe(403);
    expect((await mallory.client.post(links(), { title: 'Mine', url: 'https://a.example.com/' })).status).toBe(404);
    expect((await mallory.client.patch(`${links()}/${blog.id}`, { title: 'Mine' })).status).toBe(404);
    expect((await mallory.client.delete(`${links()}/${blog.id}`)).status).toBe(404);
    // Their own site does not reach our link either.
    const theirs = (await mallory.client.post<any>(sites(otherOrg), { title: 'Theirs' })).body.id;
    expect((await mallory.client.patch(`${sites(otherOrg)}/${theirs}/external-links/${blog.id}`, { title: 'Mine' })).status).toBe(404);
    expect((await alice.client.patch(`${links()}/nope`, { title: 'Mine' })).status).toBe(404);
    expect((await structure()).structure[0].title).toBe('Blog');
  });

  it('readers see live links whose condition holds, as tabs on the reader pages', async () => {
    await alice.client.must.post(links(), { title: 'Status', url: 'https://status.example.com/', draft: true });
    await alice.client.must.post(links(), { title: 'Beta', url: 'https://beta.example.com/', condition: 'visitor.claims.unsigned.beta == true' });
    await alice.client.must.post(`${sites()}/${siteId}/publish`);
    expect(titles((await structure()).structure)).toEqual(['Blog', 'Guides', 'API', 'Status', 'Beta']);

    const resolved = await t.client().post<any>('/v1/urls/published', { url: 'http://docs.test/sites/linked/intro' });
    const reader = t.client(resolved.body.apiToken);
    expect(titles((await structure(reader)).structure)).toEqual(['Blog', 'Guides', 'API']);
    expect(titles((await reader.get<any>(`${sites()}/${siteId}/published`)).body.structure.structure)).toEqual(['Blog', 'Guides', 'API']);

    const page = await request(t.app.getHttpServer()).get('/sites/linked/intro');
    expect(page.status).toBe(200);
    const tabs = /<nav class="sections"[^>]*>(.*?)<\/nav>/s.exec(page.text)![1];
    expect([...tabs.matchAll(/<a href="([^"]+)"[^>]*>([^<]+)<\/a>/g)].map((m) => m[2])).toEqual(['Blog', 'Guides', 'API']);
    expect(tabs).toContain('<a href="https://blog.example.com/" rel="noopener noreferrer">Blog</a>');
    // Claims in the address are kept in a cookie, and the address cleaned.
    const claimed = await request(t.app.getHttpServer()).get('/sites/linked/intro?visitor.beta=true');
    expect(claimed.status).toBe(302);
    const beta = await request(t.app.getHttpServer()).get('/sites/linked/intro').set('Cookie', claimed.headers['set-cookie']);
    expect(beta.text).toContain('<a href="https://beta.example.com/" rel="noopener noreferrer">Beta</a>');

    // A site that opens external links in a new tab says so on the link.
    await alice.client.must.put(`${sites()}/${siteId}/customization`, { externalLinks: { target: 'blank' } });
    const blank = await request(t.app.getHttpServer()).get('/sites/linked/intro');
    expect(blank.text).toContain('<a href="https://blog.example.com/" rel="noopener noreferrer" target="_blank">Blog</a>');
  });
});
