import request from 'supertest';
import { TestApp, TestUser } from '@app/testing';
import { commitContent } from './content.fixtures';

/** GET .../publishing/preview (getSitePublishingPreviewById) and the reader pages of its address. */
describe('site previews', () => {
  let t: TestApp;
  let alice: TestUser;
  let editor: TestUser;
  let reader: TestUser;
  let stranger: TestUser;
  let org: string;
  let siteId: string;
  let apiSectionId: string;
  let referenceSiteSpaceId: string;
  const sites = () => `/v1/orgs/${org}/sites`;
  const get = (url: string, headers: Record<string, string> = {}) => {
    const parsed = new URL(url, 'http://docs.test');
    const req = request(t.app.getHttpServer()).get(parsed.pathname + parsed.search);
    for (const [k, v] of Object.entries(headers)) req.set(k, v);
    return req;
  };
  const preview = (query: Record<string, string> = {}, who: TestUser = alice) => who.client.get<any>(`${sites()}/${siteId}/publishing/preview`, query);

  beforeAll(async () => {
    t = await TestApp.start();
    [alice, editor, reader, stranger] = [await t.user('Alice'), await t.user('Eddie'), await t.user('Rita'), await t.user('Stan')];
    org = await t.organization(alice, [[editor, 'create'], [reader, 'read']]);
    await t.organization(stranger);
    const guides = (await alice.client.post<any>(`/v1/orgs/${org}/spaces`, { title: 'Guides' })).body.id;
    const reference = (await alice.client.post<any>(`/v1/orgs/${org}/spaces`, { title: 'Reference' })).body.id;
    await commitContent(t, guides, [{ id: 'intro', title: 'Introduction', slug: 'intro', body: 'Draft welcome text' }]);
    await commitContent(t, reference, [{ id: 'ref-home', title: 'API', slug: 'api', body: 'The **API** reference.' }]);
    siteId = (await alice.client.post<any>(sites(), { title: 'Unreleased Docs', spaces: [guides] })).body.id;
    await alice.client.must.patch(`${sites()}/${siteId}`, { basename: `unreleased-${process.pid}-${Date.now() % 100000}` });
    const section = await alice.client.post<any>(`${sites()}/${siteId}/sections`, { spaceId: reference, title: 'API reference' });
    apiSectionId = section.body.id;
    await alice.client.must.patch(`${sites()}/${siteId}/sections/${apiSectionId}`, { condition: 'visitor.claims.plan == "pro"' });
    const siteSpaces = (await alice.client.get<any>(`${sites()}/${siteId}/site-spaces`)).body.items;
    referenceSiteSpaceId = siteSpaces.find((s: any) => s.space.id === reference).id;
  });
  afterAll(() => t.close());

  it('previews a site that was never published, for an hour, as private unindexed pages', async () => {
    const site = (await alice.client.get<any>(`${sites()}/${siteId}`)).body;
    expect((await get(site.urls.published ?? `/sites/${siteId}/`)).status).toBe(404);
    const res = await preview();
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['url']);
    expect(res.body.url).toMatch(new RegExp(`^http://docs\\.test/sites/${siteId}/~preview/[\\w-]+\\.[\\w-]+\\.[\\w-]+/$`));
    const page = await get(res.body.url);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Draft welcome text');
    expect(page.text).toContain('noindex');
    expect(page.headers['cache-control']).toBe('private, no-cache');
    expect(page.headers['x-robots-tag']).toBe('noindex');
    // Links inside the preview stay inside it.
    expect(page.text).toContain(`href="${res.body.url}intro"`);
    expect((await get(`${res.body.url}intro`)).status).toBe(200);
    expect((await get(`${res.body.url}robots.txt`)).text).toContain('Disallow: /');
    // The site itself is still not published.
    expect((await get(`/sites/${siteId}/`)).status).toBe(404);

    t.clock.advance(3601 * 1000);
    expect((await get(`${res.body.url}intro`)).status).toBe(404);
  });

  it('shows conditioned sections only to the claims it was made for, and opens at the site space asked for', async () => {
    const anyone = (await preview()).body.url;
    expect((await get(anyone)).text).not.toContain('API reference');
    const pro = await preview({ claims: '(plan:pro)', siteSpace: referenceSiteSpaceId });
    expect(pro.status).toBe(200);
    expect(pro.body.url).toMatch(/\/~preview\/[^/]+\/api-reference\/$/);
    const page = await get(pro.body.url);
    expect(page.status).toBe(200);
    expect(page.text).toContain('The <strong>API</strong> reference.');
    const base = pro.body.url.replace(/api-reference\/$/, '');
    expect((await get(base)).text).toContain('API reference');
    // The anonymous preview cannot reach the section by its address either.
    expect((await get(`${anyone}api-reference/api`)).status).toBe(404);
  });

  it('answers 400 to claims that are not a Rison object and to a site space of another site', async () => {
    for (const claims of ['(plan:', '!(a,b)', 'plain', `(k:'${'x'.repeat(5000)}')`]) {
      const res = await preview({ claims });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(/^claims: /);
    }
    const other = await preview({ siteSpace: 'no-such-site-space' });
    expect(other.status).toBe(400);
    expect(other.body.error.message).toContain('siteSpace');
  });

  it("shows only what its viewer may read, checked on every view: a restricted space's pages and title stay out", async () => {
    const salaries = (await alice.client.post<any>(`/v1/orgs/${org}/spaces`, { title: 'Salaries' })).body.id;
    await alice.client.must.patch(`/v1/spaces/${salaries}`, { defaultLevel: null });
    await commitContent(t, salaries, [{ id: 'pay', title: 'Pay grid', slug: 'pay', body: 'Confidential pay grid' }]);
    const site = (await alice.client.post<any>(sites(), { title: 'Mixed', spaces: [salaries] })).body.id;
    await alice.client.must.post(`${sites()}/${site}/sections`, { spaceId: (await alice.client.post<any>(`/v1/orgs/${org}/spaces`, { title: 'Open' })).body.id, title: 'Open part' });
    expect((await editor.client.get(`/v1/spaces/${salaries}`)).status).toBe(404);
    const mine = (await editor.client.get<any>(`${sites()}/${site}/publishing/preview`)).body.url as string;
    const theirs = (await alice.client.get<any>(`${sites()}/${site}/publishing/preview`)).body.url as string;
    // The admin's preview shows the pay grid; the editor's does not, by any address.
    expect((await get(`${theirs}pay`)).text).toContain('Confidential pay grid');
    for (const path of ['', 'pay', 'pay.md', 'llms.txt', '~search?q=confidential', 'sitemap.xml']) {
      const res = await get(`${mine}${path}`);
      expect([path, /Confidential|Pay grid|Salaries/.test(res.text)]).toEqual([path, false]);
    }
    // Nor does the site's structure show the editor that space, or its title.
    const structure = await editor.client.get<any>(`${sites()}/${site}/structure`);
    expect(structure.status).toBe(200);
    expect(JSON.stringify(structure.body)).not.toContain('Salaries');
    expect(JSON.stringify((await alice.client.get<any>(`${sites()}/${site}/structure`)).body)).toContain('Salaries');
    const siteSpaces = await editor.client.get<any>(`${sites()}/${site}/site-spaces`);
    expect(JSON.stringify(siteSpaces.body)).not.toContain(salaries);
    // A member who loses access loses the preview they were given.
    expect((await get(`${theirs}pay`)).status).toBe(200);
    const aliceId = alice.id;
    await t.changeAuth(`UPDATE users SET disabled_at = now() WHERE id = $1`, [aliceId]);
    try {
      expect((await get(`${theirs}pay`)).status).toBe(404);
    } finally {
      await t.dataSource.query(`UPDATE users SET disabled_at = NULL WHERE id = $1`, [aliceId]);
    }
  });

  it('is for members who may edit sites: readers 403, strangers 404; a forged or foreign token opens nothing', async () => {
    expect((await preview({}, editor)).status).toBe(200);
    expect((await preview({}, reader)).status).toBe(403);
    expect((await preview({}, stranger)).status).toBe(404);
    const url: string = (await preview()).body.url;
    const token = url.split('/~preview/')[1].replace(/\/$/, '');
    const [header, payload] = token.split('.');
    expect((await get(`/sites/${siteId}/~preview/${header}.${payload}.forged/`)).status).toBe(404);
    expect((await get(`/sites/${siteId}/~preview/`)).status).toBe(404);
    // Another site's preview token does not open this one.
    const otherSite = (await alice.client.post<any>(sites(), { title: 'Other' })).body.id;
    const otherToken = (await alice.client.get<any>(`${sites()}/${otherSite}/publishing/preview`)).body.url.split('/~preview/')[1];
    expect((await get(`/sites/${siteId}/~preview/${otherToken}`)).status).toBe(404);
    // A preview address is not published content: POST /urls/published does not resolve it.
    expect((await alice.client.post('/v1/urls/published', { url })).status).toBe(404);
    // Members can still ask what a preview address shows.
    const content = await alice.client.get<any>('/v1/urls/content', { url: `${url}intro` });
    expect(content.status).toBe(200);
    expect(content.body.page.title).toBe('Introduction');
  });
});
