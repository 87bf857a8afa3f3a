import { AddressInfo } from 'node:net';
import { TestApp, TestUser } from '@app/testing';
import { contractTransport } from './support/contract-transport';

// The official client, unchanged.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { GitBookAPI } = require('gitbook-api-current');

/** Style guides: listStyleguideTemplates, createSiteStyleguideById and listOrganizationStyleguides. */
describe('Site style guides (e2e)', () => {
  let t: TestApp;
  let alice: TestUser; // admin
  let carl: TestUser; // create
  let rita: TestUser; // read
  let mallory: TestUser; // another organization
  let org: string;
  const sites = () => `/v1/orgs/${org}/sites`;
  const ensure = (user: TestUser, siteId: string, body?: unknown) => user.client.post<any>(`${sites()}/${siteId}/styleguide`, body);
  const pages = async (spaceId: string) => (await rita.client.get<any>(`/v1/spaces/${spaceId}/content/pages`)).body.pages;
  const spaceCount = async () => Number((await t.dataSource.query('SELECT count(*) FROM spaces WHERE organization_id = $1 AND deleted_at IS NULL', [org]))[0].count);

  beforeAll(async () => {
    t = await TestApp.start();
    alice = await t.user('Alice');
    [carl, rita, mallory] = [await t.user('Carl'), await t.user('Rita'), await t.user('Mallory')];
    org = await t.organization(alice, [[carl, 'create'], [rita, 'read']]);
    await t.organization(mallory, [], 'Elsewhere');
  });
  afterAll(() => t.close());

  it('lists the built-in templates to members only', async () => {
    const res = await rita.client.get<any>(`/v1/orgs/${org}/styleguide-templates`);
    expect(res.status).toBe(200);
    expect(res.body.templates.map((template: any) => template.id)).toEqual(['technical', 'friendly', 'concise']);
    for (const template of res.body.templates) {
      expect(template.title).toBeTruthy();
      expect(template.markdown).toMatch(/^# Style guide\n/);
    }
    expect((await mallory.client.get(`/v1/orgs/${org}/styleguide-templates`)).status).toBe(404);
  });

  it('makes a style guide space from a template once, names it on the site, and gives the same space back', async () => {
    const siteId = (await carl.client.post<any>(sites(), { title: 'Docs' })).body.id;
    expect((await rita.client.get<any>(`${sites()}/${siteId}`)).body.styleguide).toBeUndefined();
    const before = await spaceCount();
    const res = await ensure(carl, siteId, { template: 'technical' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'space', title: 'Style guide' });
    const [page] = await pages(res.body.id);
    expect(page).toMatchObject({ title: 'Style guide', slug: 'style-guide' });
    expect(page.markdown).toContain('Address the reader as "you"');
    expect((await rita.client.get<any>(`${sites()}/${siteId}`)).body.styleguide).toEqual({ kind: 'space', space: res.body.id });

    const again = await ensure(carl, siteId, { template: 'friendly' });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(res.body.id);
    expect(await spaceCount()).toBe(before + 1);
  });

  it('makes a blank one without a template, and a new one when the old space was deleted', async () => {
    const siteId = (await carl.client.post<any>(sites(), { title: 'Blank' })).body.id;
    const blank = (await ensure(carl, siteId)).body;
    const [page] = await pages(blank.id);
    expect(page.title).toBe('Style guide');
    expect(page.markdown.trim()).toBe('');
    expect((await alice.client.delete(`/v1/spaces/${blank.id}`)).status).toBe(205);
    const replaced = await ensure(carl, siteId, {});
    expect(replaced.status).toBe(200);
    expect(replaced.body.id).not.toBe(blank.id);
    expect((await rita.client.get<any>(`${sites()}/${siteId}`)).body.styleguide.space).toBe(replaced.body.id);
  });

  it('refuses unknown templates, readers and strangers, and then makes nothing', async () => {
    const siteId = (await carl.client.post<any>(sites(), { title: 'Guarded' })).body.id;
    const before = await spaceCount();
    const bad = await ensure(carl, siteId, { template: 'shouty' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/template: one of "technical", "friendly", "concise"/);
    expect((await ensure(carl, siteId, { template: 42 })).status).toBe(400);
    expect((await ensure(rita, siteId)).status).toBe(403);
    expect((await ensure(mallory, siteId)).status).toBe(404);
    expect((await ensure(carl, 'nope')).status).toBe(404);
    expect(await spaceCount()).toBe(before);
    expect((await rita.client.get<any>(`${sites()}/${siteId}`)).body.styleguide).toBeUndefined();
  });

  it('requests racing on one site leave one style guide space', async () => {
    const siteId = (await carl.client.post<any>(sites(), { title: 'Raced' })).body.id;
    const before = await spaceCount();
    const answers = await Promise.all([1, 2, 3, 4].map(() => ensure(carl, siteId, { template: 'concise' })));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    expect(await spaceCount()).toBe(before + 1);
  });

  it('lists the style guide spaces the caller may see, with the sites using each', async () => {
    const [one, two] = [(await carl.client.post<any>(sites(), { title: 'One' })).body.id, (await carl.client.post<any>(sites(), { title: 'Two' })).body.id];
    const guide = (await ensure(carl, one, { template: 'technical' })).body.id;
    await t.dataSource.query('UPDATE sites SET styleguide_space_id = $1 WHERE id = $2', [guide, two]);
    const res = await rita.client.get<any>(`/v1/orgs/${org}/styleguides`);
    expect(res.status).toBe(200);
    const entry = res.body.styleguides.find((s: any) => s.space.id === guide);
    expect(entry.sites.map((site: any) => site.id).sort()).toEqual([one, two].sort());
    expect(entry.sites[0]).toMatchObject({ object: 'site', styleguide: { kind: 'space', space: guide } });
    // A guide the caller may not see is left out (an admin still sees it); outsiders get 404.
    expect((await alice.client.patch(`/v1/spaces/${guide}`, { defaultLevel: null })).status).toBe(200);
    expect((await rita.client.get<any>(`/v1/orgs/${org}/styleguides`)).body.styleguides.map((s: any) => s.space.id)).not.toContain(guide);
    expect((await alice.client.get<any>(`/v1/orgs/${org}/styleguides`)).body.styleguides.map((s: any) => s.space.id)).toContain(guide);
    expect((await mallory.client.get(`/v1/orgs/${org}/styleguides`)).status).toBe(404);
  });

  it('works through the official client', async () => {
    await t.app.listen(0, '127.0.0.1');
    const endpoint = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    const calls: string[] = [];
    const api = new GitBookAPI({ endpoint, authToken: carl.token, serviceBinding: contractTransport(calls) });
    const siteId = (await carl.client.post<any>(sites(), { title: 'Client' })).body.id;
    const { data: templates } = await api.orgs.listStyleguideTemplates(org);
    expect(templates.templates.length).toBe(3);
    const { data: space } = await api.orgs.createSiteStyleguideById(org, siteId, { template: 'concise' });
    expect(space.object).toBe('space');
    const { data: list } = await api.orgs.listOrganizationStyleguides(org);
    expect(list.styleguides.some((s: any) => s.space.id === space.id)).toBe(true);
    expect(calls).toHaveLength(3);
  });
});
