import { AddressInfo } from 'node:net';
import request from 'supertest';
import { TestApp, TestUser } from '@app/testing';
import { commitContent } from './content.fixtures';
import { contractTransport } from './support/contract-transport';

// The official client, unchanged.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { GitBookAPI } = require('gitbook-api-current');

/**
 * Site redirects: listSiteRedirects, createSiteRedirect, bulkUpsertSiteRedirects,
 * updateSiteRedirectById, deleteSiteRedirectById, getSiteRedirectBySource, and readers of the
 * published site sent on by them when a path has no page.
 */
describe('Site redirects (e2e)', () => {
  let t: TestApp;
  let alice: TestUser; // admin
  let carl: TestUser; // create
  let rita: TestUser; // read
  let mallory: TestUser; // another organization
  let org: string;
  let guides: string;
  let reference: string;
  let siteId: string;
  let guidesSiteSpace: string;
  let referenceSection: string;
  const base = () => `/v1/orgs/${org}/sites/${siteId}`;
  const read = (path: string) => request(t.app.getHttpServer()).get(path);
  // Each a second later, so "newest first" has one answer.
  const create = (body: object, user = carl) => {
    t.clock.advance(1000);
    return user.client.post<any>(`${base()}/redirects`, body);
  };
  const external = (url: string) => ({ kind: 'external', url });

  beforeAll(async () => {
    t = await TestApp.start();
    [alice, carl, rita, mallory] = [await t.user('Alice'), await t.user('Carl'), await t.user('Rita'), await t.user('Mallory')];
    org = await t.organization(alice, [
      [carl, 'create'],
      [rita, 'read'],
    ]);
    await t.organization(mallory, [], 'Elsewhere');
    guides = (await alice.client.post<any>(`/v1/orgs/${org}/spaces`, { title: 'Guides' })).body.id;
    reference = (await alice.client.post<any>(`/v1/orgs/${org}/spaces`, { title: 'Reference' })).body.id;
    await commitContent(t, guides, [
      { id: 'intro', title: 'Introduction', slug: 'intro', body: 'Hello.' },
      { id: 'setup', title: 'Setup', slug: 'setup', body: 'Install.', pages: [{ id: 'linux', title: 'Linux', slug: 'linux', body: 'apt install.' }] },
    ]);
    await commitContent(t, reference, [{ id: 'api', title: 'API', slug: 'api', body: 'Endpoints.' }]);
    siteId = (await alice.client.post<any>(`/v1/orgs/${org}/sites`, { title: 'Acme Docs', spaces: [guides] })).body.id;
    await alice.client.must.patch(base(), { basename: 'acme' });
    await alice.client.must.post(`${base()}/publish`);
    referenceSection = (await carl.client.post<any>(`${base()}/sections`, { spaceId: reference, title: 'Reference' })).body.id;
    guidesSiteSpace = (await alice.client.get<any>(`${base()}/site-spaces`)).body.items.find((s: any) => s.space.id === guides).id;
  });
  afterAll(() => t.close());

  it('creates, lists, finds, updates and deletes redirects to every kind of destination', async () => {
    const toPage = await create({ source: '/old-setup', destination: { kind: 'site-page', siteSpaceId: guidesSiteSpace, pageId: 'setup' } });
    expect(toPage.status).toBe(201);
    expect(toPage.body).toEqual({
      object: 'site-redirect',
      id: expect.any(String),
      source: '/old-setup',
      draft: false,
      captureWildcard: false,
      permanent: false,
      destination: { kind: 'site-page', siteSpaceId: guidesSiteSpace, pageId: 'setup' },
      createdAt: expect.any(String),
    });
    // a page named by its space and path is stored as the page
    const byPath = await create({ source: '/old-linux', destination: { kind: 'path', spaceId: guides, path: 'setup/linux' }, permanent: true });
    expect(byPath.body.destination).toEqual({ kind: 'site-page', siteSpaceId: guidesSiteSpace, pageId: 'linux' });
    expect((await create({ source: '/ref', destination: { kind: 'site-section', siteSectionId: referenceSection } })).status).toBe(201);
    expect((await create({ source: '/home', destination: { kind: 'site-space', siteSpaceId: guidesSiteSpace } })).status).toBe(201);
    expect((await create({ source: '/blog/*', destination: external('https://blog.example.com/posts'), captureWildcard: true })).status).toBe(201);
    expect((await create({ source: '/later', destination: external('https://example.com/later'), draft: true })).status).toBe(201);

    const live = (await rita.client.get<any>(`${base()}/redirects`)).body;
    expect(live.items.map((r: any) => r.source)).toEqual(['/blog/*', '/home', '/ref', '/old-linux', '/old-setup']);
    expect((await rita.client.get<any>(`${base()}/redirects`, { draft: true })).body.items.map((r: any) => r.source)).toEqual(['/later']);
    expect((await rita.client.get<any>(`${base()}/redirects`, { search: 'OLD' })).body.items.map((r: any) => r.source)).toEqual(['/old-linux', '/old-setup']);
    const bySource = await rita.client.get<any>(`${base()}/redirects`, { orderBy: 'source', limit: 2 });
    expect(bySource.body.items.map((r: any) => r.source)).toEqual(['/blog/*', '/home']);
    const next = await rita.client.get<any>(`${base()}/redirects`, { orderBy: 'source', limit: 2, page: bySource.body.next.page });
    expect(next.body.items.map((r: any) => r.source)).toEqual(['/old-linux', '/old-setup']);

    const found = await rita.client.get<any>(`${base()}/redirect`, { source: '/old-linux' });
    expect(found.status).toBe(200);
    expect(found.body).toMatchObject({ redirect: { id: byPath.body.id, permanent: true }, target: 'http://docs.test/sites/acme/setup/linux' });
    expect((await rita.client.get<any>(`${base()}/redirect`, { source: '/ref' })).body.target).toBe('http://docs.test/sites/acme/reference/');
    expect((await rita.client.get<any>(`${base()}/redirect`, { source: '/later' })).status).toBe(404);

    t.clock.advance(60_000);
    const updated = await carl.client.patch<any>(`${base()}/redirects/${toPage.body.id}`, { source: '/older-setup', destination: external('https://example.com/setup') });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ source: '/older-setup', destination: external('https://example.com/setup'), updatedAt: expect.any(String) });
    expect((await rita.client.get<any>(`${base()}/redirects`, { orderBy: 'updatedAt' })).body.items[0].id).toBe(toPage.body.id);
    expect((await carl.client.delete(`${base()}/redirects/${toPage.body.id}`)).status).toBe(205);
    expect((await carl.client.delete(`${base()}/redirects/${toPage.body.id}`)).status).toBe(204);
    expect((await rita.client.get<any>(`${base()}/redirect`, { source: '/older-setup' })).status).toBe(404);
  });

  it('refuses bad sources and destinations, readers, strangers and duplicates, writing nothing', async () => {
    const before = (await t.dataSource.query('SELECT count(*)::int AS n FROM site_redirects'))[0].n;
    const otherSite = (await alice.client.post<any>(`/v1/orgs/${org}/sites`, { title: 'Other', spaces: [reference] })).body.id;
    const otherSiteSpace = (await alice.client.get<any>(`/v1/orgs/${org}/sites/${otherSite}/site-spaces`)).body.items[0].id;
    const bad: Array<[object, string]> = [
      [{ source: 'no-slash', destination: external('https://x.example') }, 'source'],
      [{ source: '/a/*/b', destination: external('https://x.example') }, 'source'],
      [{ source: '/a', destination: external('javascript:alert(1)') }, 'destination.url'],
      [{ source: '/a', destination: { kind: 'site-space', siteSpaceId: otherSiteSpace } }, 'not a site space of this site'],
      [{ source: '/a', destination: { kind: 'site-page', siteSpaceId: guidesSiteSpace, pageId: 'nope' } }, 'destination.pageId'],
      [{ source: '/a', destination: { kind: 'path', spaceId: guides, path: 'missing' } }, 'destination.path'],
      [{ source: '/a', destination: { kind: 'path', spaceId: otherSite, path: 'intro' } }, 'destination.spaceId'],
      [{ source: '/a', destination: { kind: 'site-section', siteSectionId: 'nope' } }, 'siteSectionId'],
      [{ source: '/a', destination: external('https://x.example'), permanent: 'yes' }, 'permanent'],
      [{ source: '/a' }, 'destination'],
    ];
    for (const [body, reason] of bad) {
      const res = await create(body);
      expect([res.status, res.body.error.code]).toEqual([400, 400]);
      expect(res.body.error.message).toContain(reason);
    }
    expect((await create({ source: '/a', destination: external('https://x.example') }, rita)).status).toBe(403);
    expect((await mallory.client.get(`${base()}/redirects`)).status).toBe(404);
    expect((await mallory.client.post(`${base()}/redirects`, { source: '/a', destination: external('https://x.example') })).status).toBe(404);
    expect((await t.dataSource.query('SELECT count(*)::int AS n FROM site_redirects'))[0].n).toBe(before);

    const first = await create({ source: '/dup', destination: external('https://x.example') });
    const again = await create({ source: '/dup', destination: external('https://y.example') });
    expect([again.status, again.body.error.message]).toEqual([409, 'A live redirect from "/dup" already exists']);
    // the same source as a draft is another redirect
    const draft = await create({ source: '/dup', destination: external('https://y.example'), draft: true });
    expect(draft.status).toBe(201);
    expect((await carl.client.patch(`${base()}/redirects/${draft.body.id}`, { draft: false })).status).toBe(409);
    expect((await carl.client.patch(`${base()}/redirects/nope`, { permanent: true })).status).toBe(404);
    for (const [patch, reason] of [
      [{ source: '/a b' }, 'source'],
      [{ destination: { kind: 'site-space', siteSpaceId: otherSiteSpace } }, 'not a site space of this site'],
      [{ captureWildcard: 'yes' }, 'captureWildcard'],
      [{ draft: 1 }, 'draft'],
    ] as Array<[object, string]>) {
      const res = await carl.client.patch<any>(`${base()}/redirects/${first.body.id}`, patch);
      expect([res.status, res.body.error.code]).toEqual([400, 400]);
      expect(res.body.error.message).toContain(reason);
    }
    expect((await rita.client.patch(`${base()}/redirects/${first.body.id}`, { permanent: true })).status).toBe(403);
    for (const query of [{}, { source: 'no-slash' }, { source: '/a/*/b' }]) {
      expect((await rita.client.get(`${base()}/redirect`, query)).status).toBe(400);
    }
    await carl.client.must.delete(`${base()}/redirects/${first.body.id}`);
    await carl.client.must.delete(`${base()}/redirects/${draft.body.id}`);
  });

  it('gives one of two racing creates of a source a 409, never a 500', async () => {
    const [a, b] = await Promise.all([create({ source: '/race', destination: external('https://a.example') }), create({ source: '/race', destination: external('https://b.example') })]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
    expect((await t.dataSource.query(`SELECT count(*)::int AS n FROM site_redirects WHERE source = '/race'`))[0].n).toBe(1);
  });

  it('applies up to 500 operations in one request, each answered on its own', async () => {
    await create({ source: '/bulk-draft', destination: external('https://draft.example'), draft: true });
    await create({ source: '/bulk-gone', destination: external('https://gone.example') });
    const res = await carl.client.put<any>(`${base()}/redirects`, {
      redirects: [
        { source: '/bulk-new', destination: external('https://new.example') },
        { source: '/bulk-new', destination: external('https://newer.example'), permanent: true },
        { source: '/bulk-gone', destination: null },
        { source: '/bulk-draft', intent: 'publish' },
        { source: '/bulk-nothing', intent: 'publish' },
        { source: '/bulk-elsewhere', destination: { kind: 'site-space', siteSpaceId: 'nope' } },
        { source: '/bulk-later', intent: 'draft', destination: { kind: 'path', spaceId: guides, path: 'intro' } },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.results.map((r: any) => [r.status, r.source, r.draft])).toEqual([
      ['created', '/bulk-new', false],
      ['updated', '/bulk-new', false],
      ['deleted', '/bulk-gone', false],
      ['published', '/bulk-draft', false],
      ['error', '/bulk-nothing', false],
      ['error', '/bulk-elsewhere', false],
      ['created', '/bulk-later', true],
    ]);
    expect(res.body.results[5].error).toContain('not a site space of this site');
    expect((await rita.client.get<any>(`${base()}/redirect`, { source: '/bulk-new' })).body).toMatchObject({ redirect: { permanent: true }, target: 'https://newer.example' });
    expect((await rita.client.get<any>(`${base()}/redirect`, { source: '/bulk-draft' })).body.target).toBe('https://draft.example');
    expect((await rita.client.get<any>(`${base()}/redirects`, { draft: true, search: 'bulk' })).body.items.map((r: any) => r.source)).toEqual(['/bulk-later']);
    expect((await rita.client.get(`${base()}/redirect`, { source: '/bulk-gone' })).status).toBe(404);
    // what the request's schema refuses refuses the whole request, which then writes nothing
    const bad = [
      [],
      Array.from({ length: 501 }, () => ({ source: '/x', destination: null })),
      'x',
      [{ source: '/bulk-x', destination: external('https://x.example') }, { source: 'bad source', destination: null }],
      [{ source: '/bulk-x', intent: 'later', destination: null }],
    ];
    for (const redirects of bad) {
      const refused = await carl.client.put<any>(`${base()}/redirects`, { redirects });
      expect([refused.status, refused.body.error.code]).toEqual([400, 400]);
    }
    expect((await carl.client.put<any>(`${base()}/redirects`, { redirects: bad[3] })).body.error.message).toContain('redirects[1].source');
    expect((await rita.client.get(`${base()}/redirect`, { source: '/bulk-x' })).status).toBe(404);
    expect((await rita.client.put(`${base()}/redirects`, { redirects: [{ source: '/x', destination: null }] })).status).toBe(403);
  });

  it('sends readers who find no page on, 307 or 308, never away from a page that exists', async () => {
    await create({ source: '/guide', destination: { kind: 'site-page', siteSpaceId: guidesSiteSpace, pageId: 'linux' }, permanent: true });
    await create({ source: '/docs/*', destination: { kind: 'site-space', siteSpaceId: guidesSiteSpace }, captureWildcard: true });
    await create({ source: '/intro', destination: external('https://example.com/never') });
    await create({ source: '/soon', destination: external('https://example.com/soon'), draft: true });
    const guide = await read('/sites/acme/guide');
    expect([guide.status, guide.headers.location]).toEqual([308, 'http://docs.test/sites/acme/setup/linux']);
    expect((await read('/sites/acme/guide/')).headers.location).toBe('http://docs.test/sites/acme/setup/linux');
    const docs = await read('/sites/acme/docs/setup/linux');
    expect([docs.status, docs.headers.location]).toEqual([307, 'http://docs.test/sites/acme/setup/linux']);
    const blog = await read('/sites/acme/blog/2026/hello');
    expect([blog.status, blog.headers.location]).toEqual([307, 'https://blog.example.com/posts/2026/hello']);
    expect((await read('/sites/acme/intro')).status).toBe(200);
    expect((await read('/sites/acme/soon')).status).toBe(404);
    expect((await read('/sites/acme/nothing-here')).status).toBe(404);
    // a page deleted since: its site space's root
    await commitContent(t, guides, [
      { id: 'intro', title: 'Introduction', slug: 'intro', body: 'Hello.' },
      { id: 'setup', title: 'Setup', slug: 'setup', body: 'Install.' },
    ]);
    expect((await read('/sites/acme/guide')).headers.location).toBe('http://docs.test/sites/acme/');
  });

  it("answers the site's own reader token where a source goes, and nothing else of redirects", async () => {
    await create({ source: '/moved', destination: { kind: 'site-page', siteSpaceId: guidesSiteSpace, pageId: 'intro' } });
    const token = (await t.client().post<any>('/v1/urls/published', { url: 'http://docs.test/sites/acme/intro' })).body.apiToken;
    const reader = t.client(token);
    const found = await reader.get<any>(`${base()}/redirect`, { source: '/moved' });
    expect([found.status, found.body.target]).toEqual([200, 'http://docs.test/sites/acme/intro']);
    expect((await reader.get(`${base()}/redirects`)).status).toBe(403);
    expect((await reader.post(`${base()}/redirects`, { source: '/x', destination: external('https://x.example') })).status).toBe(403);
    const other = (await alice.client.post<any>(`/v1/orgs/${org}/sites`, { title: 'Elsewhere', spaces: [guides] })).body.id;
    expect((await reader.get(`/v1/orgs/${org}/sites/${other}/redirect`, { source: '/moved' })).status).toBe(404);
  });

  it('works through the official client', async () => {
    await t.app.listen(0, '127.0.0.1');
    const endpoint = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    const calls: string[] = [];
    const api = new GitBookAPI({ endpoint, authToken: carl.token, serviceBinding: contractTransport(calls) });
    const { data: created } = await api.orgs.createSiteRedirect(org, siteId, { source: '/client', destination: { kind: 'external', url: 'https://client.example/' } });
    const { data: list } = await api.orgs.listSiteRedirects(org, siteId, { search: 'client' });
    expect(list.items.map((r: any) => r.id)).toEqual([created.id]);
    const { data: resolved } = await api.orgs.getSiteRedirectBySource(org, siteId, { source: '/client' });
    expect(resolved.target).toBe('https://client.example/');
    await api.orgs.updateSiteRedirectById(org, siteId, created.id, { permanent: true });
    const { data: bulk } = await api.orgs.bulkUpsertSiteRedirects(org, siteId, { redirects: [{ source: '/client', destination: null }] });
    expect(bulk.results[0].status).toBe('deleted');
    expect(calls).toHaveLength(5);
  });
});
