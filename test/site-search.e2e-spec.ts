import { AddressInfo } from 'node:net';
import { TestApp, TestUser } from '@app/testing';
import { publish } from './search.fixtures';

// The official client, unchanged.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { GitBookAPI } = require('@gitbook/api');

/**
 * POST /orgs/{id}/sites/{siteId}/search (searchSiteContent): a site with two sections, each showing an
 * English space (the default) and a French variant, and a space of the organization outside the site.
 */
describe('Site search (e2e)', () => {
  let t: TestApp;
  let alice: TestUser;
  let rita: TestUser;
  let mallory: TestUser;
  let org: string;
  let otherOrg: string;
  let siteId: string;
  const spaces: Record<'guidesEn' | 'guidesFr' | 'refEn' | 'refFr' | 'outside', string> = {} as never;
  const siteSpaces: Record<'guidesEn' | 'guidesFr' | 'refEn' | 'refFr', string> = {} as never;

  beforeAll(async () => {
    t = await TestApp.start();
    [alice, rita, mallory] = [await t.user('Alice'), await t.user('Rita'), await t.user('Mallory')];
    org = await t.organization(alice, [[rita, 'read']]);
    otherOrg = await t.organization(mallory, [], 'Elsewhere');
    const make = async (title: string, language: string) => (await alice.client.post<any>(`/v1/orgs/${org}/spaces`, { title, language })).body.id as string;
    spaces.guidesEn = await make('Guides', 'en');
    spaces.guidesFr = await make('Guides FR', 'fr');
    spaces.refEn = await make('Reference', 'en');
    spaces.refFr = await make('Reference FR', 'fr');
    spaces.outside = await make('Outside', 'en');
    for (const [key, spaceId] of Object.entries(spaces)) {
      await publish(t, spaceId, [{ title: `Widgets in ${key}`, slug: 'widgets', body: `Every widget of ${key}.` }]);
    }

    const sites = `/v1/orgs/${org}/sites`;
    siteId = (await alice.client.post<any>(sites, { title: 'Docs', spaces: [spaces.guidesEn] })).body.id;
    const reference = (await alice.client.post<any>(`${sites}/${siteId}/sections`, { spaceId: spaces.refEn, title: 'Reference' })).body;
    const home = (await alice.client.get<any>(`${sites}/${siteId}/sections`)).body.items.find((s: any) => s.default);
    await alice.client.must.post(`${sites}/${siteId}/site-spaces`, { spaceId: spaces.guidesFr, sectionId: home.id });
    await alice.client.must.post(`${sites}/${siteId}/site-spaces`, { spaceId: spaces.refFr, sectionId: reference.id });
    for (const siteSpace of (await alice.client.get<any>(`${sites}/${siteId}/site-spaces`)).body.items) {
      const key = Object.entries(spaces).find(([, id]) => id === siteSpace.space.id)![0] as keyof typeof siteSpaces;
      siteSpaces[key] = siteSpace.id;
    }
  });
  afterAll(() => t.close());

  const search = (user: TestUser, body: Record<string, unknown>, query?: Record<string, unknown>, site = siteId, organization = org) =>
    user.client.post<any>(`/v1/orgs/${organization}/sites/${site}/search${query ? `?${new URLSearchParams(query as Record<string, string>)}` : ''}`, body);
  const found = (res: { body: any }) => res.body.items.map((item: any) => item.id).sort();
  const ids = (...keys: (keyof typeof spaces)[]) => keys.map((key) => spaces[key]).sort();

  it('searches every site space, and only those (mode all)', async () => {
    const res = await search(rita, { query: 'widget', scope: { mode: 'all' } });
    expect(res.status).toBe(200);
    expect(found(res)).toEqual(ids('guidesEn', 'guidesFr', 'refEn', 'refFr'));
    expect(res.body.count).toBe(4);
    const guides = res.body.items.find((item: any) => item.id === spaces.guidesEn);
    expect(guides).toMatchObject({ title: 'Guides', pages: [{ title: 'Widgets in guidesEn', path: 'widgets' }] });
    expect(guides.pages[0].sections[0].body).toContain('widget');
    // The organization search finds the space outside the site too.
    expect(found(await rita.client.get<any>(`/v1/orgs/${org}/search`, { query: 'widget' }))).toContain(spaces.outside);
  });

  it("searches each section's default, or the current site space's section and language (mode default)", async () => {
    expect(found(await search(rita, { query: 'widget', scope: { mode: 'default' } }))).toEqual(ids('guidesEn', 'refEn'));
    // Without a scope, the same.
    expect(found(await search(rita, { query: 'widget' }))).toEqual(ids('guidesEn', 'refEn'));
    const french = await search(rita, { query: 'widget', scope: { mode: 'default', currentSiteSpace: siteSpaces.guidesFr } });
    expect(found(french)).toEqual(ids('guidesFr', 'refFr'));
    expect(found(await search(rita, { query: 'widget', scope: { mode: 'default', currentSiteSpace: siteSpaces.refEn } }))).toEqual(ids('guidesEn', 'refEn'));
  });

  it('splits the default scope as GitBook\'s renderer asks: the current site space, then the others (restrictTo)', async () => {
    const half = (restrictTo: string) => search(rita, { query: 'widget', scope: { mode: 'default', currentSiteSpace: siteSpaces.guidesFr, restrictTo } });
    expect(found(await half('currentSiteSpace'))).toEqual(ids('guidesFr'));
    expect(found(await half('otherSiteSpaces'))).toEqual(ids('refFr'));
    expect((await half('everything')).status).toBe(400);
    expect((await search(rita, { query: 'widget', scope: { mode: 'default', restrictTo: 'currentSiteSpace' } })).status).toBe(400);
  });

  it('searches the site spaces named (mode specific), and accepts the deprecated forms', async () => {
    expect(found(await search(rita, { query: 'widget', scope: { mode: 'specific', siteSpaceIds: [siteSpaces.refFr] } }))).toEqual(ids('refFr'));
    expect(found(await search(rita, { query: 'widget', siteSpaceIds: [siteSpaces.refFr, siteSpaces.guidesEn] }))).toEqual(ids('refFr', 'guidesEn'));
    expect(found(await search(rita, { query: 'widget', mode: 'specific', siteSpaceIds: [siteSpaces.refEn] }))).toEqual(ids('refEn'));
    expect(found(await search(rita, { query: 'widget', mode: 'current', siteSpaceId: siteSpaces.refFr }))).toEqual(ids('guidesFr', 'refFr'));
    expect(found(await search(rita, { query: 'widget', mode: 'all' }))).toHaveLength(4);
    expect((await search(rita, { query: 'nothing-matches-this', scope: { mode: 'all' } })).body).toMatchObject({ items: [], count: 0 });
  });

  it('pages through the results', async () => {
    const seen: string[] = [];
    let page: string | undefined;
    do {
      const res = await search(rita, { query: 'widget', scope: { mode: 'all' } }, { limit: 3, ...(page ? { page } : {}) });
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(4);
      seen.push(...res.body.items.map((item: any) => item.id));
      page = res.body.next?.page;
    } while (page);
    expect(seen.sort()).toEqual(ids('guidesEn', 'guidesFr', 'refEn', 'refFr'));
  });

  it('answers the official client', async () => {
    await t.app.listen(0, '127.0.0.1');
    const endpoint = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    const client = new GitBookAPI({ endpoint, authToken: rita.token });
    const res = await client.orgs.searchSiteContent(org, siteId, { query: 'widget', scope: { mode: 'specific', siteSpaceIds: [siteSpaces.guidesFr] } });
    expect(res.data.items.map((item: any) => item.id)).toEqual([spaces.guidesFr]);
  });

  it('refuses bad input with 400, naming the problem', async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ query: '', scope: { mode: 'all' } }, /query/],
      [{ query: 'x'.repeat(513), scope: { mode: 'all' } }, /query/],
      [{ scope: { mode: 'all' } }, /query/],
      [{ query: 'widget', scope: { mode: 'nope' } }, /mode/],
      [{ query: 'widget', scope: 'all' }, /scope/],
      [{ query: 'widget', scope: { mode: 'specific' } }, /siteSpaceIds/],
      [{ query: 'widget', scope: { mode: 'specific', siteSpaceIds: [] } }, /siteSpaceIds/],
      [{ query: 'widget', scope: { mode: 'specific', siteSpaceIds: ['nope'] } }, /no site space nope/],
      [{ query: 'widget', scope: { mode: 'default', currentSiteSpace: 'nope' } }, /currentSiteSpace/],
      [{ query: 'widget', scope: { mode: 'all', extra: 1 } }, /extra/],
      [{ query: 'widget', scope: { mode: 'all' }, mode: 'all' }, /either/],
      [{ query: 'widget', mode: 'current' }, /siteSpaceId/],
      [{ query: 'widget', mode: 'sometimes' }, /scope/],
      [{ query: 'widget', scope: { mode: 'all' }, other: true }, /other/],
    ];
    for (const [body, message] of cases) {
      const res = await search(rita, body);
      expect([res.status, body]).toEqual([400, body]);
      expect(res.body.error.code).toBe(400);
      expect(res.body.error.message).toMatch(message);
    }
    expect((await search(rita, { query: 'widget', scope: { mode: 'all' } }, { limit: 1001 })).status).toBe(400);
  });

  it('accepts a prewarm (204) from those who can see the site, with nothing to warm', async () => {
    const prewarm = (user: TestUser, site = siteId) => user.client.post(`/v1/orgs/${org}/sites/${site}/search/prewarm`);
    expect((await prewarm(rita)).status).toBe(204);
    expect((await prewarm(mallory)).status).toBe(404);
    expect((await prewarm(rita, 'nope')).status).toBe(404);
  });

  it("answers 404 to strangers, for unknown sites and for another organization's site", async () => {
    expect((await search(mallory, { query: 'widget', scope: { mode: 'all' } })).status).toBe(404);
    expect((await search(rita, { query: 'widget', scope: { mode: 'all' } }, undefined, 'nope')).status).toBe(404);
    const theirs = (await mallory.client.post<any>(`/v1/orgs/${otherOrg}/sites`, { title: 'Theirs' })).body.id;
    expect((await search(rita, { query: 'widget', scope: { mode: 'all' } }, undefined, theirs)).status).toBe(404);
    expect((await search(alice, { query: 'widget', scope: { mode: 'all' } }, undefined, theirs)).status).toBe(404);
    // Their site space ids name nothing in our site.
    const res = await search(rita, { query: 'widget', scope: { mode: 'specific', siteSpaceIds: [theirs] } });
    expect(res.status).toBe(400);
  });
});
