import { TestApp, TestUser } from '@app/testing';

/**
 * Sharing a site with users and teams (inviteToSite, list/update/remove user and team permissions
 * in a site): a grant raises the organization role on that site, and shows it to a guest.
 */
describe('site grants', () => {
  let t: TestApp;
  let admin: TestUser;
  let reader: TestUser;
  let teamie: TestUser;
  let guest: TestUser;
  let stranger: TestUser;
  let org: string;
  let otherOrg: string;
  let siteId: string;
  let otherSiteId: string;
  let teamId: string;
  let foreignTeamId: string;
  const site = (id = siteId) => `/v1/orgs/${org}/sites/${id}`;
  const permissions = (id = siteId) => `${site(id)}/permissions`;
  const rename = (who: TestUser, title: string, id = siteId) => who.client.patch<any>(site(id), { title });

  beforeAll(async () => {
    t = await TestApp.start();
    [admin, reader, teamie, guest, stranger] = [await t.user('Ada'), await t.user('Rita'), await t.user('Tim'), await t.user('Gus'), await t.user('Stan')];
    org = await t.organization(admin);
    for (const [user, role] of [[reader, 'read'], [teamie, 'read'], [guest, null]] as const) {
      t.clock.advance(1000);
      await t.dataSource.query(`INSERT INTO organization_members (organization_id, user_id, role, joined_at) VALUES ($1, $2, $3, $4)`, [org, user.id, role, t.clock.now()]);
    }
    otherOrg = await t.organization(stranger);
    teamId = (await admin.client.put<any>(`/v1/orgs/${org}/teams`, { title: 'Writers', members: [teamie.id] })).body.id;
    foreignTeamId = (await stranger.client.put<any>(`/v1/orgs/${otherOrg}/teams`, { title: 'Elsewhere' })).body.id;
    siteId = (await admin.client.post<any>(`/v1/orgs/${org}/sites`, { title: 'Docs' })).body.id;
    otherSiteId = (await admin.client.post<any>(`/v1/orgs/${org}/sites`, { title: 'Internal' })).body.id;
  });
  afterAll(() => t.close());

  it('without grants a site follows the organization role: readers may not rename it, guests do not see it', async () => {
    expect((await rename(reader, 'Nope')).status).toBe(403);
    expect((await guest.client.get(site())).status).toBe(404);
    expect((await guest.client.get(`/v1/orgs/${org}/sites`)).status).toBe(404);
  });

  it('inviteToSite gives users and teams a role on the site, listed oldest grant first', async () => {
    expect((await admin.client.post(permissions(), { role: 'read', users: [guest.id] })).status).toBe(204);
    t.clock.advance(1000);
    expect((await admin.client.post(permissions(), { role: 'create', teams: [teamId] })).status).toBe(204);

    const users = await reader.client.get<any>(`${permissions()}/users`);
    expect(users.status).toBe(200);
    expect(users.body.items).toEqual([{ permission: 'read', user: expect.objectContaining({ object: 'user', id: guest.id }) }]);
    const teams = await reader.client.get<any>(`${permissions()}/teams`);
    expect(teams.body.items).toEqual([{ permission: 'create', team: expect.objectContaining({ object: 'team', id: teamId, title: 'Writers' }) }]);
    expect(teams.body.count).toBe(1);
  });

  it('a grant raises the role on that site only: a team member may rename it, not the other site', async () => {
    expect((await rename(teamie, 'Docs by Writers')).status).toBe(200);
    expect((await teamie.client.get<any>(site())).body.title).toBe('Docs by Writers');
    expect((await rename(teamie, 'Nope', otherSiteId)).status).toBe(403);
    // create is not admin: publishing still needs admin.
    expect((await teamie.client.post(`${site()}/publish`)).status).toBe(403);
  });

  it('a guest sees the sites shared with them, and only those, at the role granted', async () => {
    const own = await guest.client.get<any>(site());
    expect(own.status).toBe(200);
    const listed = await guest.client.get<any>(`/v1/orgs/${org}/sites`);
    expect(listed.status).toBe(200);
    expect(listed.body.items.map((item: any) => item.id)).toEqual([siteId]);
    expect((await guest.client.get(site(otherSiteId))).status).toBe(404);
    expect((await rename(guest, 'Nope')).status).toBe(403);
    // Nor may a guest change who the site is shared with.
    expect((await guest.client.post(permissions(), { role: 'admin', users: [guest.id] })).status).toBe(403);
  });

  it('the aggregate lists members with a role and everyone the site is shared with, each with the origin of their role', async () => {
    const res = await admin.client.get<any>(`${permissions()}/aggregate`);
    expect(res.status).toBe(200);
    const byUser = Object.fromEntries(res.body.items.map((item: any) => [item.user.id, { permission: item.permission, origin: item.origin }]));
    expect(byUser).toEqual({
      [admin.id]: { permission: 'admin', origin: { type: 'organization', organization: org } },
      [reader.id]: { permission: 'read', origin: { type: 'organization', organization: org } },
      [teamie.id]: { permission: 'create', origin: { type: 'site', site: siteId, reason: 'team', team: teamId } },
      [guest.id]: { permission: 'read', origin: { type: 'site', site: siteId, reason: 'member' } },
    });
    expect(res.body.count).toBe(4);
    // The other site is shared with nobody: members with a role only.
    expect((await admin.client.get<any>(`${permissions(otherSiteId)}/aggregate`)).body.count).toBe(3);
  });

  it('PATCH sets a role, null removes it; DELETE answers 205 when it removed a grant and 204 when there was none', async () => {
    expect((await admin.client.patch(`${permissions()}/users/${guest.id}`, { role: 'edit' })).status).toBe(204);
    expect((await admin.client.get<any>(`${permissions()}/users`)).body.items[0].permission).toBe('edit');
    expect((await admin.client.patch(`${permissions()}/users/${guest.id}`, { role: null })).status).toBe(204);
    expect((await admin.client.get<any>(`${permissions()}/users`)).body.items).toEqual([]);
    expect((await guest.client.get(site())).status).toBe(404);

    expect((await admin.client.patch(`${permissions()}/teams/${teamId}`, { role: 'admin' })).status).toBe(204);
    expect((await teamie.client.post(`${site()}/publish`)).status).toBe(200);
    expect((await admin.client.delete(`${permissions()}/teams/${teamId}`)).status).toBe(205);
    expect((await admin.client.delete(`${permissions()}/teams/${teamId}`)).status).toBe(204);
    expect((await rename(teamie, 'Nope')).status).toBe(403);
    expect((await admin.client.delete(`${permissions()}/users/${guest.id}`)).status).toBe(204);
  });

  it('refuses bad input with a 400 naming it, and writes nothing', async () => {
    const bad = async (body: unknown) => {
      const res = await admin.client.post<any>(permissions(), body);
      expect(res.status).toBe(400);
      return res.body.error.message as string;
    };
    expect(await bad({ role: 'read', users: [guest.id, stranger.id] })).toContain(stranger.id);
    expect(await bad({ role: 'read', teams: [foreignTeamId] })).toContain(foreignTeamId);
    expect(await bad({ role: 'owner', users: [guest.id] })).toMatch(/role/);
    expect(await bad({ role: 'read' })).toMatch(/users|teams/);
    expect(await bad({ users: [guest.id] })).toMatch(/role/);
    expect(await bad({ role: 'read', users: [guest.id], teams: [foreignTeamId] })).toContain(foreignTeamId);
    expect((await admin.client.get<any>(`${permissions()}/users`)).body.items).toEqual([]);
    expect((await admin.client.patch(`${permissions()}/users/${guest.id}`, { role: 'boss' })).status).toBe(400);
    expect((await admin.client.patch(`${permissions()}/teams/${teamId}`, {})).status).toBe(400);
    for (const list of ['users', 'teams', 'aggregate']) {
      expect((await admin.client.get(`${permissions()}/${list}`, { limit: 0 })).status).toBe(400);
      expect((await admin.client.get(`${permissions()}/${list}`, { page: 'not-a-cursor' })).status).toBe(400);
    }
  });

  it('is for site admins and hides sites from outsiders: 403 for readers, 404 for strangers, unknown sites, users and teams', async () => {
    expect((await reader.client.post(permissions(), { role: 'read', users: [guest.id] })).status).toBe(403);
    expect((await reader.client.patch(`${permissions()}/users/${guest.id}`, { role: 'read' })).status).toBe(403);
    expect((await reader.client.delete(`${permissions()}/teams/${teamId}`)).status).toBe(403);
    expect((await stranger.client.post(permissions(), { role: 'read', users: [stranger.id] })).status).toBe(404);
    expect((await stranger.client.get(`${permissions()}/users`)).status).toBe(404);
    expect((await stranger.client.get(`${permissions()}/teams`)).status).toBe(404);
    expect((await stranger.client.patch(`${permissions()}/teams/${teamId}`, { role: 'admin' })).status).toBe(404);
    expect((await stranger.client.delete(`${permissions()}/users/${guest.id}`)).status).toBe(404);
    // The stranger's own organization does not reach into ours through the path.
    expect((await stranger.client.get(`/v1/orgs/${otherOrg}/sites/${siteId}/permissions/users`)).status).toBe(404);
    expect((await admin.client.post(permissions('nosuchsite'), { role: 'read', users: [guest.id] })).status).toBe(404);
    expect((await admin.client.patch(`${permissions()}/users/${stranger.id}`, { role: 'read' })).status).toBe(404);
    expect((await admin.client.patch(`${permissions()}/teams/${foreignTeamId}`, { role: 'read' })).status).toBe(404);
  });

  it('a member who leaves the organization loses their site grants with it', async () => {
    expect((await admin.client.post(permissions(), { role: 'edit', users: [reader.id] })).status).toBe(204);
    expect((await admin.client.delete(`/v1/orgs/${org}/members/${reader.id}`)).status).toBeLessThan(300);
    expect((await admin.client.get<any>(`${permissions()}/users`)).body.items).toEqual([]);
    expect(Number((await t.dataSource.query(`SELECT count(*) FROM site_grants WHERE user_id = $1`, [reader.id]))[0].count)).toBe(0);
  });

  it('two admins sharing the site with the same user at once both succeed, and one grant remains', async () => {
    const [a, b] = await Promise.all([
      admin.client.post(permissions(), { role: 'read', users: [guest.id] }),
      admin.client.post(permissions(), { role: 'comment', users: [guest.id] }),
    ]);
    expect([a.status, b.status]).toEqual([204, 204]);
    const users = (await admin.client.get<any>(`${permissions()}/users`)).body.items;
    expect(users).toHaveLength(1);
    expect(['read', 'comment']).toContain(users[0].permission);
  });
});
