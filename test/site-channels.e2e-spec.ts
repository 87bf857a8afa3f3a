import { AddressInfo } from 'node:net';
import { TestApp, TestUser } from '@app/testing';
import { contractTransport } from './support/contract-transport';

// The official client, unchanged.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { GitBookAPI } = require('gitbook-api-current');

/** Site channels: where a site's assistant may answer (Slack, Discord, GitHub, Linear), managed by site admins. */
describe('Site channels (e2e)', () => {
  let t: TestApp;
  let alice: TestUser; // admin
  let carl: TestUser; // create
  let mallory: TestUser; // another organization
  let org: string;
  let siteId: string;
  let api: any;
  const channels = (site = siteId) => `/v1/orgs/${org}/sites/${site}/channels`;

  beforeAll(async () => {
    t = await TestApp.start();
    await t.app.listen(0, '127.0.0.1');
    [alice, carl, mallory] = [await t.user('Alice'), await t.user('Carl'), await t.user('Mallory')];
    org = await t.organization(alice, [[carl, 'create']]);
    await t.organization(mallory, [], 'Elsewhere');
    siteId = (await alice.client.post<any>(`/v1/orgs/${org}/sites`, { title: 'Docs' })).body.id;
    const endpoint = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    api = new GitBookAPI({ endpoint, authToken: alice.token, serviceBinding: contractTransport() });
  });
  afterAll(() => t.close());

  it('creates, lists, reads, updates and deletes channels through the official client', async () => {
    const created = await api.orgs.createSiteChannel(org, siteId, { type: 'builtin:slack', setupSettings: { allowedChannels: ['support-*', 'general'] } });
    expect(created.status).toBe(201);
    expect(created.data).toEqual({
      object: 'site-channel',
      id: created.data.id,
      type: 'builtin:slack',
      setupSettings: { allowedChannels: ['support-*', 'general'] },
      status: 'pending',
      role: 'support',
      answers: 0,
      createdAt: expect.any(String),
      urls: { location: `http://docs.test/v1/orgs/${org}/sites/${siteId}/channels/${created.data.id}` },
    });
    t.clock.advance(1000);
    const github = (await api.orgs.createSiteChannel(org, siteId, { type: 'builtin:github', setupSettings: { allowedRepositories: ['acme/*'] }, role: 'collaborator' })).data;
    expect((await api.orgs.listSiteChannels(org, siteId)).data.items.map((c: any) => c.type)).toEqual(['builtin:slack', 'builtin:github']);
    expect((await api.orgs.getSiteChannelById(org, siteId, github.id)).data).toMatchObject({ role: 'collaborator', setupSettings: { allowedRepositories: ['acme/*'] } });

    const role = await api.orgs.updateSiteChannelById(org, siteId, created.data.id, { role: 'collaborator' });
    expect(role.data).toMatchObject({ role: 'collaborator', setupSettings: { allowedChannels: ['support-*', 'general'] } });
    const moved = await api.orgs.updateSiteChannelById(org, siteId, created.data.id, { type: 'builtin:discord', setupSettings: { allowedChannels: [] } });
    expect(moved.data).toMatchObject({ type: 'builtin:discord', setupSettings: { allowedChannels: [] }, role: 'collaborator' });
    expect((await api.orgs.deleteSiteChannelById(org, siteId, github.id)).status).toBe(205);
    expect((await alice.client.delete(`${channels()}/${github.id}`)).status).toBe(204);
    expect((await alice.client.get(`${channels()}/${github.id}`)).status).toBe(404);
  });

  it('refuses settings of another type, bad patterns, unknown roles, and a second channel of one type', async () => {
    const bad = [
      { type: 'builtin:teams', setupSettings: {} },
      { type: 'builtin:slack', setupSettings: { allowedRepositories: ['a/b'] } },
      { type: 'builtin:github', setupSettings: { allowedRepositories: ['no-owner'] } },
      { type: 'builtin:linear', setupSettings: { allowedTeams: ['has space'] } },
      { type: 'builtin:linear', setupSettings: { allowedTeams: Array.from({ length: 101 }, (_, i) => `T${i}`) } },
      { type: 'builtin:linear', setupSettings: [] },
      { type: 'builtin:linear', setupSettings: {}, role: 'owner' },
    ];
    for (const body of bad) expect([body.type, (await alice.client.post(channels(), body)).status]).toEqual([body.type, 400]);
    const linear = await alice.client.post<any>(channels(), { type: 'builtin:linear', setupSettings: { allowedTeams: ['ENG'] } });
    expect(linear.status).toBe(201);
    const again = await alice.client.post<any>(channels(), { type: 'builtin:linear', setupSettings: {} });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toMatch(/already has a builtin:linear channel/);
    // Two at once: one wins, the other gets a 409.
    const racing = await Promise.all([1, 2].map(() => alice.client.post(channels(), { type: 'builtin:github', setupSettings: {} })));
    expect(racing.map((r) => r.status).sort()).toEqual([201, 409]);
    const discord = (await alice.client.get<any>(channels())).body.items.find((c: any) => c.type === 'builtin:discord');
    expect((await alice.client.patch(`${channels()}/${discord.id}`, { type: 'builtin:linear', setupSettings: {} })).status).toBe(409);
    expect((await alice.client.patch(`${channels()}/${discord.id}`, {})).status).toBe(400);
  });

  it('members who see the site read its channels; only site admins change them; other organizations get 404', async () => {
    const listed = await carl.client.get<any>(channels());
    expect(listed.status).toBe(200);
    const one = listed.body.items[0];
    expect((await carl.client.post(channels(), { type: 'builtin:slack', setupSettings: {} })).status).toBe(403);
    expect((await carl.client.patch(`${channels()}/${one.id}`, { role: 'support' })).status).toBe(403);
    expect((await carl.client.delete(`${channels()}/${one.id}`)).status).toBe(403);
    expect((await mallory.client.get(channels())).status).toBe(404);
    expect((await mallory.client.get(`${channels()}/${one.id}`)).status).toBe(404);
    expect((await mallory.client.patch(`${channels()}/${one.id}`, { role: 'support' })).status).toBe(404);
    // A channel id of one site does not reach through another site of the same organization.
    const other = (await alice.client.post<any>(`/v1/orgs/${org}/sites`, { title: 'Other' })).body.id;
    expect((await alice.client.get(`${channels(other)}/${one.id}`)).status).toBe(404);
    expect((await alice.client.delete(`${channels(other)}/${one.id}`)).status).toBe(204);
    expect((await alice.client.get(`${channels()}/${one.id}`)).status).toBe(200);
  });
});
