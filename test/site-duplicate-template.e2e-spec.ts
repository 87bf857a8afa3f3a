import { AddressInfo } from 'node:net';
import { TestApp, TestUser } from '@app/testing';
import { commitContent } from './content.fixtures';
import { contractTransport } from './support/contract-transport';

// The official client, unchanged.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { GitBookAPI } = require('gitbook-api-current');

/** duplicateSiteSpace and applyTemplateToSite: a space copied into a site's structure, and an empty site filled. */
describe('Site space duplication and the site template (e2e)', () => {
  let t: TestApp;
  let carl: TestUser; // create
  let rita: TestUser; // read
  let mallory: TestUser; // another organization
  let org: string;
  let guides: string;
  let reference: string;
  const sites = () => `/v1/orgs/${org}/sites`;

  beforeAll(async () => {
    t = await TestApp.start();
    const alice = await t.user('Alice');
    [carl, rita, mallory] = [await t.user('Carl'), await t.user('Rita'), await t.user('Mallory')];
    org = await t.organization(alice, [[carl, 'create'], [rita, 'read']]);
    await t.organization(mallory, [], 'Elsewhere');
    guides = (await carl.client.post<any>(`/v1/orgs/${org}/spaces`, { title: 'Guides' })).body.id;
    reference = (await carl.client.post<any>(`/v1/orgs/${org}/spaces`, { title: 'Reference' })).body.id;
    await commitContent(t, guides, [{ id: 'intro', title: 'Introduction', slug: 'intro', body: 'Welcome.', pages: [{ id: 'setup', title: 'Setup', slug: 'setup', body: 'Run it.' }] }]);
  });
  afterAll(() => t.close());

  const siteSpaces = async (siteId: string) => (await rita.client.get<any>(`${sites()}/${siteId}/site-spaces`)).body.items;
  const structureTitles = async (siteId: string) =>
    (await rita.client.get<any>(`${sites()}/${siteId}/structure`)).body.structure.map((section: any) => [section.title, section.siteSpaces.map((s: any) => s.space.title)]);
  const spaceCount = async () => Number((await t.dataSource.query('SELECT count(*) FROM spaces WHERE organization_id = $1', [org]))[0].count);
  const pageTitles = async (spaceId: string) => {
    const titles: string[] = [];
    const walk = (pages: any[]) => pages.forEach((p) => (titles.push(p.title), walk(p.pages ?? [])));
    walk((await rita.client.get<any>(`/v1/spaces/${spaceId}/content/pages`)).body.pages);
    return titles;
  };

  it("copies a section's only variant into a new section right after it, with the space's content", async () => {
    const siteId = (await carl.client.post<any>(sites(), { title: 'Docs' })).body.id;
    await carl.client.must.post(`${sites()}/${siteId}/sections`, { spaceId: guides, title: 'Guides' });
    await carl.client.must.post(`${sites()}/${siteId}/sections`, { spaceId: reference, title: 'Reference' });
    const original = (await siteSpaces(siteId)).find((s: any) => s.space.id === guides);

    const res = await carl.client.post<any>(`${sites()}/${siteId}/site-spaces/${original.id}/duplicate`, {});
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ object: 'site-space', default: true });
    expect(res.body.space.id).not.toBe(guides);
    expect(res.headers.location).toBe(`http://docs.test/v1/orgs/${org}/sites/${siteId}/site-spaces/${res.body.id}`);
    const copyTitle = res.body.space.title;
    expect(copyTitle).toContain('Guides');
    expect(await structureTitles(siteId)).toEqual([
      ['Guides', ['Guides']],
      [copyTitle, [copyTitle]],
      ['Reference', ['Reference']],
    ]);
    expect(await pageTitles(res.body.space.id)).toEqual(['Introduction', 'Setup']);
  });

  it('copies one of several variants as a new variant right after it; at the root, as another root site space', async () => {
    const siteId = (await carl.client.post<any>(sites(), { title: 'Variants' })).body.id;
    const section = (await carl.client.post<any>(`${sites()}/${siteId}/sections`, { spaceId: guides, title: 'Guides' })).body;
    await carl.client.must.post(`${sites()}/${siteId}/site-spaces`, { spaceId: reference, sectionId: section.id });
    const original = (await siteSpaces(siteId)).find((s: any) => s.space.id === guides);
    const copy = (await carl.client.post<any>(`${sites()}/${siteId}/site-spaces/${original.id}/duplicate`)).body;
    expect(copy.default).toBe(false);
    expect(await structureTitles(siteId)).toEqual([['Guides', ['Guides', copy.space.title, 'Reference']]]);

    const rootSite = (await carl.client.post<any>(sites(), { title: 'Root', spaces: [guides] })).body.id;
    const [rootOriginal] = await siteSpaces(rootSite);
    const rootCopy = await carl.client.post<any>(`${sites()}/${rootSite}/site-spaces/${rootOriginal.id}/duplicate`, { draft: false });
    expect(rootCopy.status).toBe(201);
    expect((await siteSpaces(rootSite)).map((s: any) => [s.space.id, s.default])).toEqual([
      [guides, true],
      [rootCopy.body.space.id, false],
    ]);
    expect((await rita.client.get<any>(`${sites()}/${rootSite}/sections`)).body.items).toEqual([]);
  });

  it('refuses drafts, bad input, unknown site spaces, readers and strangers, and then writes nothing', async () => {
    const siteId = (await carl.client.post<any>(sites(), { title: 'Guarded', spaces: [guides] })).body.id;
    const [original] = await siteSpaces(siteId);
    const before = await spaceCount();
    const duplicate = (user: TestUser, body: unknown = {}, id = original.id, site = siteId, organization = org) =>
      user.client.post<any>(`/v1/orgs/${organization}/sites/${site}/site-spaces/${id}/duplicate`, body);
    const draft = await duplicate(carl, { draft: true });
    expect(draft.status).toBe(400);
    expect(draft.body.error.message).toMatch(/draft/);
    expect((await duplicate(carl, { draft: 'yes' })).status).toBe(400);
    expect((await duplicate(carl, {}, 'nope')).status).toBe(404);
    expect((await duplicate(carl, {}, original.id, 'nope')).status).toBe(404);
    expect((await duplicate(rita)).status).toBe(403);
    expect((await duplicate(mallory)).status).toBe(404);
    expect(await spaceCount()).toBe(before);
    expect(await siteSpaces(siteId)).toHaveLength(1);
  });

  it('fills an empty site with a starter space titled like the site, once', async () => {
    const siteId = (await carl.client.post<any>(sites(), { title: 'Starter docs' })).body.id;
    const before = await spaceCount();
    const res = await carl.client.post<any>(`${sites()}/${siteId}/template`);
    expect(res.status).toBe(200);
    const [siteSpace] = await siteSpaces(siteId);
    expect(siteSpace).toMatchObject({ default: true, space: { title: 'Starter docs' } });
    expect((await pageTitles(siteSpace.space.id)).length).toBeGreaterThan(0);
    expect(await spaceCount()).toBe(before + 1);

    const again = await carl.client.post<any>(`${sites()}/${siteId}/template`);
    expect(again.status).toBe(409);
    expect(again.body.error).toEqual({ code: 409, message: 'The template fills only a site that shows no space yet' });
    expect((await carl.client.post(`${sites()}/${(await carl.client.post<any>(sites(), { title: 'Busy', spaces: [guides] })).body.id}/template`)).status).toBe(409);
    expect(await spaceCount()).toBe(before + 1);

    const empty = (await carl.client.post<any>(sites(), { title: 'Still empty' })).body.id;
    expect((await rita.client.post(`${sites()}/${empty}/template`)).status).toBe(403);
    expect((await mallory.client.post(`${sites()}/${empty}/template`)).status).toBe(404);
    expect(await siteSpaces(empty)).toEqual([]);
  });

  it('two template requests racing on one empty site: one space, one site space, the loser 409', async () => {
    const siteId = (await carl.client.post<any>(sites(), { title: 'Raced' })).body.id;
    const before = await spaceCount();
    const statuses = (await Promise.all([1, 2, 3].map(() => carl.client.post(`${sites()}/${siteId}/template`)))).map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409, 409]);
    expect(await siteSpaces(siteId)).toHaveLength(1);
    expect(await spaceCount()).toBe(before + 1);
  });

  it('works through the official client', async () => {
    await t.app.listen(0, '127.0.0.1');
    const endpoint = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    const calls: string[] = [];
    const api = new GitBookAPI({ endpoint, authToken: carl.token, serviceBinding: contractTransport(calls) });
    const siteId = (await carl.client.post<any>(sites(), { title: 'Client', spaces: [reference] })).body.id;
    const [original] = await siteSpaces(siteId);
    const { data } = await api.orgs.duplicateSiteSpace(org, siteId, original.id, {});
    expect(data.object).toBe('site-space');
    const empty = (await carl.client.post<any>(sites(), { title: 'Client empty' })).body.id;
    expect((await api.orgs.applyTemplateToSite(org, empty)).status).toBe(200);
    expect(calls).toHaveLength(2);
  });
});
