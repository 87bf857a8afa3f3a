import { TestApp, TestUser } from '@app/testing';
import { TeamsService } from '../src/modules/teams/application/teams.service';

/**
 * Teams and team members: /v1/orgs/{organizationId}/teams/... and
 * /v1/orgs/{organizationId}/members/{userId}/teams.
 */
describe('teams', () => {
  let t: TestApp;
  let alice: TestUser; // admin of org
  let bob: TestUser; // read member of org
  let carol: TestUser; // create member of org
  let dave: TestUser; // guest of org
  let erin: TestUser; // admin of another org only
  let frank: TestUser; // member of the other org only
  let orgId: string;
  let otherOrgId: string;

  const teams = (org = orgId) => `/v1/orgs/${org}/teams`;
  const team = (id: string, org = orgId) => `/v1/orgs/${org}/teams/${id}`;
  const members = (id: string, org = orgId) => `/v1/orgs/${org}/teams/${id}/members`;
  const member = (id: string, userId: string, org = orgId) => `/v1/orgs/${org}/teams/${id}/members/${userId}`;
  const memberTeams = (userId: string, org = orgId) => `/v1/orgs/${org}/members/${userId}/teams`;

  async function createTeam(title: string, memberIds: string[] = [], by = alice, org = orgId): Promise<string> {
    const res = await by.client.put(teams(org), { title, members: memberIds });
    expect(res.status).toBe(201);
    return res.body.id as string;
  }

  async function teamRows(): Promise<{ id: string; title: string }[]> {
    return t.dataSource.query('SELECT id, title FROM teams ORDER BY id');
  }

  async function memberRows(teamId: string): Promise<Record<string, string>> {
    const rows: { user_id: string; role: string }[] = await t.dataSource.query(
      'SELECT user_id, role FROM team_members WHERE team_id = $1',
      [teamId],
    );
    return Object.fromEntries(rows.map((r) => [r.user_id, r.role]));
  }

  function expectError(res: { status: number; body: any }, status: number, message?: RegExp) {
    expect(res.status).toBe(status);
    expect(res.body).toEqual({ error: { code: status, message: expect.any(String) } });
    if (message) expect(res.body.error.message).toMatch(message);
  }

  beforeAll(async () => {
    t = await TestApp.start();
    alice = await t.user('Alice');
    bob = await t.user('Bob');
    carol = await t.user('Carol');
    dave = await t.user('Dave');
    erin = await t.user('Erin');
    frank = await t.user('Frank');
    orgId = await t.organization(alice, [
      [bob, 'read'],
      [carol, 'create'],
      [dave, null],
    ]);
    otherOrgId = await t.organization(erin, [[frank, 'read']], 'Other Org');
  });
  afterAll(() => t.close());

  describe('PUT /orgs/{organizationId}/teams', () => {
    it('creates a team with members, counted at once', async () => {
      const res = await alice.client.put(teams(), { title: 'Writers', members: [bob.id, carol.id, bob.id] });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        object: 'team',
        id: expect.any(String),
        title: 'Writers',
        members: 2,
        spaces: 0,
        createdAt: t.clock.now().toISOString(),
        permissions: { admin: true, view: true },
      });
      expect(await memberRows(res.body.id)).toEqual({ [bob.id]: 'member', [carol.id]: 'member' });
      const got = await bob.client.get(team(res.body.id));
      expect(got.status).toBe(200);
      expect(got.body).toMatchObject({ id: res.body.id, title: 'Writers', members: 2, permissions: { admin: false, view: true } });
    });

    it('creates a team without members and trims the title', async () => {
      const res = await alice.client.put(teams(), { title: '  Solo  ' });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ title: 'Solo', members: 0 });
    });

    it('refuses members of another organization and unknown ids, naming them, and writes nothing', async () => {
      const before = await teamRows();
      const foreign = await alice.client.put(teams(), { title: 'Smuggled', members: [bob.id, frank.id, 'nobody'] });
      expectError(foreign, 400);
      expect(foreign.body.error.message).toContain(frank.id);
      expect(foreign.body.error.message).toContain('nobody');
      expect(foreign.body.error.message).not.toContain(bob.id);
      expect(await teamRows()).toEqual(before);
    });

    it('is for organization admins only (403), and 404 for non-members', async () => {
      const before = await teamRows();
      expectError(await bob.client.put(teams(), { title: 'Nope' }), 403);
      expectError(await carol.client.put(teams(), { title: 'Nope' }), 403);
      expectError(await dave.client.put(teams(), { title: 'Nope' }), 403);
      expectError(await erin.client.put(teams(), { title: 'Nope' }), 404);
      expectError(await alice.client.put(teams('no-such-org'), { title: 'Nope' }), 404);
      expect(await teamRows()).toEqual(before);
    });

    it('rejects bad input with 400 and writes nothing', async () => {
      const before = await teamRows();
      const bodies: unknown[] = [
        {},
        { title: '' },
        { title: '   ' },
        { title: 'x'.repeat(65) },
        { title: 42 },
        { title: null },
        { title: 'Ok', extra: true },
        { title: 'Ok', members: 'not-an-array' },
        { title: 'Ok', members: [42] },
        { title: 'Ok', members: null },
        { title: 'Ok', members: [''] },
      ];
      for (const body of bodies) {
        const res = await alice.client.put(teams(), body);
        expectError(res, 400);
      }
      expectError(await alice.client.put(teams(), { title: 'x'.repeat(65) }), 400, /title/);
      expectError(await alice.client.put(teams(), { title: 'Ok', extra: true }), 400, /extra/);
      expect(await teamRows()).toEqual(before);
    });

    it('accepts a 64-character title', async () => {
      const res = await alice.client.put(teams(), { title: 'y'.repeat(64) });
      expect(res.status).toBe(201);
      expect(res.body.title).toBe('y'.repeat(64));
    });
  });

  describe('GET /orgs/{organizationId}/teams/{teamId}', () => {
    it('shows the team to members; 404 to non-members, guests outside the team and other organizations', async () => {
      const id = await createTeam('Visible', [dave.id]);
      const hidden = await createTeam('Hidden');
      expect((await carol.client.get(team(id))).body).toMatchObject({ id, permissions: { admin: false, view: true } });
      expect((await dave.client.get(team(id))).body).toMatchObject({ id, members: 1, permissions: { admin: false, view: true } });
      expectError(await dave.client.get(team(hidden)), 404);
      expectError(await erin.client.get(team(id)), 404);
      expectError(await alice.client.get(team('no-such-team')), 404);
      const foreign = await createTeam('Foreign', [], erin, otherOrgId);
      expectError(await alice.client.get(team(foreign)), 404);
      expectError(await erin.client.get(team(foreign)), 404);
      expect((await erin.client.get(team(foreign, otherOrgId))).status).toBe(200);
    });
  });

  describe('PATCH /orgs/{organizationId}/teams/{teamId}', () => {
    it('renames the team for admins and team owners; 403 for other members', async () => {
      const id = await createTeam('Before');
      const res = await alice.client.patch(team(id), { title: ' After ' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id, title: 'After' });

      expectError(await bob.client.patch(team(id), { title: 'Bob was here' }), 403);
      expectError(await carol.client.patch(team(id), { title: 'Carol was here' }), 403);
      expect((await alice.client.get(team(id))).body.title).toBe('After');

      expect((await alice.client.put(member(id, bob.id), { role: 'owner' })).status).toBe(204);
      const owned = await bob.client.patch(team(id), { title: 'Owned by Bob' });
      expect(owned.status).toBe(200);
      expect(owned.body).toMatchObject({ title: 'Owned by Bob', permissions: { admin: true, view: true } });
    });

    it('is 404 for non-members, guests outside the team and teams of other organizations', async () => {
      const id = await createTeam('Private');
      const foreign = await createTeam('Foreign', [], erin, otherOrgId);
      expectError(await erin.client.patch(team(id), { title: 'x' }), 404);
      expectError(await dave.client.patch(team(id), { title: 'x' }), 404);
      expectError(await alice.client.patch(team(foreign), { title: 'x' }), 404);
      expect((await erin.client.get(team(foreign, otherOrgId))).body.title).toBe('Foreign');
    });

    it('rejects bad input with 400 and changes nothing', async () => {
      const id = await createTeam('Stable');
      for (const body of [{}, { title: '' }, { title: '  ' }, { title: 'x'.repeat(65) }, { title: 7 }, { title: 'Ok', members: [] }]) {
        expectError(await alice.client.patch(team(id), body), 400);
      }
      expect((await alice.client.get(team(id))).body.title).toBe('Stable');
    });
  });

  describe('DELETE /orgs/{organizationId}/teams/{teamId}', () => {
    it('answers 205 when deleted and 204 when absent; memberships go with the team', async () => {
      const id = await createTeam('Doomed', [bob.id]);
      expect((await alice.client.delete(team(id))).status).toBe(205);
      expect(await memberRows(id)).toEqual({});
      expectError(await alice.client.get(team(id)), 404);
      expect((await alice.client.delete(team(id))).status).toBe(204);
      expect((await alice.client.delete(team('never-existed'))).status).toBe(204);
    });

    it('is 403 for members who do not manage the team; team owners may delete it', async () => {
      const id = await createTeam('Guarded', [bob.id]);
      expectError(await bob.client.delete(team(id)), 403);
      expectError(await carol.client.delete(team(id)), 403);
      expect((await alice.client.get(team(id))).status).toBe(200);
      await alice.client.must.put(member(id, carol.id), { role: 'owner' });
      expect((await carol.client.delete(team(id))).status).toBe(205);
    });

    it('is 404 for non-members and never touches another organization’s team', async () => {
      const id = await createTeam('Mine');
      const foreign = await createTeam('Theirs', [], erin, otherOrgId);
      expectError(await erin.client.delete(team(id)), 404);
      expect((await alice.client.delete(team(foreign))).status).toBe(204);
      expect((await erin.client.get(team(foreign, otherOrgId))).status).toBe(200);
      expect((await alice.client.get(team(id))).status).toBe(200);
    });
  });

  describe('GET /orgs/{organizationId}/teams', () => {
    let org: string;
    let admin: TestUser;
    let reader: TestUser;
    let guest: TestUser;
    const ids: string[] = [];

    beforeAll(async () => {
      admin = await t.user('List Admin');
      reader = await t.user('List Reader');
      guest = await t.user('List Guest');
      org = await t.organization(admin, [
        [reader, 'read'],
        [guest, null],
      ]);
      for (const title of ['Alpha Docs', 'beta docs', 'Gamma', '100% Done', '100 Done', 'Delta_x', 'DeltaYx']) {
        ids.push(await createTeam(title, [], admin, org));
        t.clock.advance(1000);
      }
      // two teams with the very same creation time, to exercise the id tie-break
      ids.push(await createTeam('Twin A', [], admin, org));
      ids.push(await createTeam('Twin B', [], admin, org));
      await admin.client.must.put(member(ids[0], reader.id, org), { role: 'owner' });
      await admin.client.must.put(member(ids[1], reader.id, org), { role: 'member' });
      await admin.client.must.put(member(ids[2], guest.id, org), {});
    });

    it('walks every team exactly once, oldest first', async () => {
      const seen: string[] = [];
      let page: string | undefined;
      let pages = 0;
      do {
        const res = await reader.client.get(teams(org), { limit: 2, ...(page ? { page } : {}) });
        expect(res.status).toBe(200);
        expect(res.body.count).toBe(ids.length);
        expect(res.body.items.length).toBeLessThanOrEqual(2);
        seen.push(...res.body.items.map((i: { id: string }) => i.id));
        page = res.body.next?.page;
        pages++;
      } while (page && pages < 20);
      expect(pages).toBe(5);
      expect(new Set(seen).size).toBe(ids.length);
      expect(seen.slice(0, 7)).toEqual(ids.slice(0, 7));
      expect([...seen].sort()).toEqual([...ids].sort());
    });

    it('defaults to 50 per page and refuses limit=1001, limit=0 and a bad cursor', async () => {
      const res = await admin.client.get(teams(org));
      expect(res.status).toBe(200);
      expect(res.body.items).toHaveLength(ids.length);
      expect(res.body.next).toBeUndefined();
      expectError(await admin.client.get(teams(org), { limit: 1001 }), 400, /limit/);
      expectError(await admin.client.get(teams(org), { limit: 0 }), 400);
      expectError(await admin.client.get(teams(org), { limit: 'many' }), 400);
      expectError(await admin.client.get(teams(org), { page: 'garbage' }), 400);
      expectError(await admin.client.get(teams(org), { unknown: 'x' }), 400);
    });

    it('filters by title, case-insensitively, taking % and _ literally', async () => {
      const titles = async (title: string) =>
        (await reader.client.get(teams(org), { title })).body.items.map((i: { title: string }) => i.title).sort();
      expect(await titles('DOCS')).toEqual(['Alpha Docs', 'beta docs']);
      expect(await titles('100%')).toEqual(['100% Done']);
      expect(await titles('delta_')).toEqual(['Delta_x']);
      expect(await titles('nothing like it')).toEqual([]);
      const counted = await reader.client.get(teams(org), { title: 'docs', limit: 1 });
      expect(counted.body.count).toBe(2);
      expect(counted.body.items).toHaveLength(1);
      expect(counted.body.next).toBeDefined();
    });

    it('filters by owner: the teams that member can manage', async () => {
      const owned = await admin.client.get(teams(org), { owner: reader.id });
      expect(owned.body.items.map((i: { id: string }) => i.id)).toEqual([ids[0]]);
      expect(owned.body.count).toBe(1);
      const adminCan = await reader.client.get(teams(org), { owner: admin.id });
      expect(adminCan.body.count).toBe(ids.length);
      const outsider = await admin.client.get(teams(org), { owner: frank.id });
      expect(outsider.body).toEqual({ items: [], count: 0 });
      const combined = await admin.client.get(teams(org), { owner: admin.id, title: 'twin' });
      expect(combined.body.count).toBe(2);
    });

    it('shows each caller their own permissions', async () => {
      const res = await reader.client.get(teams(org), { limit: 3 });
      const byId = new Map(res.body.items.map((i: { id: string; permissions: unknown }) => [i.id, i.permissions]));
      expect(byId.get(ids[0])).toEqual({ admin: true, view: true });
      expect(byId.get(ids[1])).toEqual({ admin: false, view: true });
    });

    it('shows guests only the teams they belong to', async () => {
      const res = await guest.client.get(teams(org));
      expect(res.status).toBe(200);
      expect(res.body.items.map((i: { id: string }) => i.id)).toEqual([ids[2]]);
      expect(res.body.count).toBe(1);
    });

    it('is 404 for non-members', async () => {
      expectError(await erin.client.get(teams(org)), 404);
      expectError(await alice.client.get(teams(org)), 404);
    });
  });

  describe('GET /orgs/{organizationId}/teams/{teamId}/members', () => {
    it('lists members with their organization membership and team role', async () => {
      const id = await createTeam('Crew', [bob.id]);
      await alice.client.must.put(member(id, carol.id), { role: 'owner' });
      const res = await bob.client.get(members(id));
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(2);
      const byUser = new Map(res.body.items.map((i: any) => [i.organization.user.id, i]));
      expect(byUser.get(bob.id)).toEqual({
        organization: {
          object: 'member',
          id: bob.id,
          role: 'read',
          user: expect.objectContaining({ object: 'user', id: bob.id, displayName: 'Bob', email: bob.email }),
          disabled: false,
          joinedAt: expect.any(String),
          sso: false,
          spaces: 0,
          teams: expect.any(Number),
          sites: 0,
        },
        team: { role: 'member' },
        permissions: { view: true },
      });
      expect(byUser.get(carol.id)).toMatchObject({ organization: { role: 'create' }, team: { role: 'owner' } });
      const teamCount: { n: string }[] = await t.dataSource.query(
        'SELECT count(*) AS n FROM team_members tm JOIN teams t ON t.id = tm.team_id WHERE tm.user_id = $1 AND t.organization_id = $2',
        [bob.id, orgId],
      );
      expect((byUser.get(bob.id) as any).organization.teams).toBe(Number(teamCount[0].n));
    });

    it('walks every member exactly once', async () => {
      const id = await createTeam('Paged', [bob.id, carol.id, dave.id, alice.id]);
      const seen: string[] = [];
      let page: string | undefined;
      let pages = 0;
      do {
        const res = await alice.client.get(members(id), { limit: 1, ...(page ? { page } : {}) });
        expect(res.status).toBe(200);
        expect(res.body.count).toBe(4);
        seen.push(...res.body.items.map((i: any) => i.organization.id));
        page = res.body.next?.page;
        pages++;
      } while (page && pages < 10);
      expect(pages).toBe(4);
      expect([...seen].sort()).toEqual([alice.id, bob.id, carol.id, dave.id].sort());
      expectError(await alice.client.get(members(id), { limit: 1001 }), 400);
    });

    it('is 404 for non-members, guests outside the team and foreign teams', async () => {
      const id = await createTeam('Closed', [bob.id]);
      const foreign = await createTeam('Foreign', [frank.id], erin, otherOrgId);
      expectError(await erin.client.get(members(id)), 404);
      expectError(await dave.client.get(members(id)), 404);
      expectError(await alice.client.get(members(foreign)), 404);
    });
  });

  describe('PUT /orgs/{organizationId}/teams/{teamId}/members', () => {
    it('adds by id and e-mail, removes, and sets roles in one request', async () => {
      const id = await createTeam('Batch', [bob.id]);
      const res = await alice.client.put(members(id), {
        add: [carol.id, dave.email.toUpperCase()],
        remove: [bob.email],
        memberships: { [carol.id]: { role: 'owner' } },
      });
      expect(res.status).toBe(204);
      expect(await memberRows(id)).toEqual({ [carol.id]: 'owner', [dave.id]: 'member' });
      expect((await alice.client.get(team(id))).body.members).toBe(2);
    });

    it('a user in both add and remove ends removed', async () => {
      const id = await createTeam('Both', [bob.id]);
      expect((await alice.client.put(members(id), { add: [bob.id, carol.id], remove: [bob.id, carol.email] })).status).toBe(204);
      expect(await memberRows(id)).toEqual({});
      expect((await alice.client.get(team(id))).body.members).toBe(0);
    });

    it('memberships change roles of existing members and add users named only there; add keeps existing roles', async () => {
      const id = await createTeam('Roles', [bob.id, carol.id]);
      await alice.client.must.put(members(id), { memberships: { [bob.id]: { role: 'owner' }, [dave.id]: { role: 'member' } } });
      expect(await memberRows(id)).toEqual({ [bob.id]: 'owner', [carol.id]: 'member', [dave.id]: 'member' });
      await alice.client.must.put(members(id), { add: [bob.id] });
      expect((await memberRows(id))[bob.id]).toBe('owner');
      await alice.client.must.put(members(id), { memberships: { [bob.id]: { role: 'member' } } });
      expect((await memberRows(id))[bob.id]).toBe('member');
      expect((await alice.client.get(team(id))).body.members).toBe(3);
      expect((await alice.client.put(members(id), {})).status).toBe(204);
      expect(Object.keys(await memberRows(id))).toHaveLength(3);
    });

    it('refuses users outside the organization, naming them, and writes nothing', async () => {
      const id = await createTeam('Strict', [bob.id]);
      const cases = [
        { add: [carol.id, frank.id] },
        { add: [carol.id, frank.email] },
        { add: [carol.id, 'nobody@example.com'] },
        { add: [carol.id, 'no-such-user'] },
        { add: [carol.id], remove: [frank.id] },
        { add: [carol.id], memberships: { [frank.id]: { role: 'owner' } } },
        { add: [carol.id, 'not-an-email@'] },
      ];
      for (const body of cases) {
        const res = await alice.client.put(members(id), body);
        expectError(res, 400);
      }
      const named = await alice.client.put(members(id), { add: [carol.id, frank.email, 'ghost'] });
      expect(named.body.error.message).toContain(frank.email);
      expect(named.body.error.message).toContain('ghost');
      expect(named.body.error.message).not.toContain(carol.id);
      expect(await memberRows(id)).toEqual({ [bob.id]: 'member' });
    });

    it('rejects bad input with 400 and writes nothing', async () => {
      const id = await createTeam('Validated', [bob.id]);
      const bodies: unknown[] = [
        { add: carol.id },
        { add: [42] },
        { add: [''] },
        { add: null },
        { remove: 'x' },
        { add: [carol.id], extra: 1 },
        { memberships: [] },
        { memberships: null },
        { memberships: 'owner' },
        { memberships: { [carol.id]: { role: 'admin' } } },
        { memberships: { [carol.id]: 'owner' } },
        { memberships: { [carol.id]: {} } },
        { memberships: { [carol.id]: { role: 'owner', extra: true } } },
        { add: Array.from({ length: 1001 }, (_, i) => `u${i}`) },
      ];
      for (const body of bodies) {
        const res = await alice.client.put(members(id), body);
        expectError(res, 400);
      }
      expect(await memberRows(id)).toEqual({ [bob.id]: 'member' });
    });

    it('lets team owners manage members; 403 for other members; 404 outside', async () => {
      const id = await createTeam('Owned', [bob.id]);
      expectError(await bob.client.put(members(id), { add: [carol.id] }), 403);
      expectError(await carol.client.put(members(id), { add: [carol.id] }), 403);
      expect(await memberRows(id)).toEqual({ [bob.id]: 'member' });
      await alice.client.must.put(member(id, bob.id), { role: 'owner' });
      expect((await bob.client.put(members(id), { add: [carol.id], memberships: { [dave.id]: { role: 'owner' } } })).status).toBe(204);
      expect(await memberRows(id)).toEqual({ [bob.id]: 'owner', [carol.id]: 'member', [dave.id]: 'owner' });
      // dave is a guest, but owns the team now: he may manage it
      expect((await dave.client.put(members(id), { remove: [carol.id] })).status).toBe(204);
      expect(await memberRows(id)).toEqual({ [bob.id]: 'owner', [dave.id]: 'owner' });

      expectError(await erin.client.put(members(id), { add: [frank.id] }), 404);
      const foreign = await createTeam('Foreign', [], erin, otherOrgId);
      expectError(await alice.client.put(members(foreign), { add: [bob.id] }), 404);
      expect(await memberRows(foreign)).toEqual({});
    });
  });

  describe('PUT /orgs/{organizationId}/teams/{teamId}/members/{userId}', () => {
    it('adds a member and updates their role', async () => {
      const id = await createTeam('Single');
      expect((await alice.client.put(member(id, bob.id), { role: 'owner' })).status).toBe(204);
      expect(await memberRows(id)).toEqual({ [bob.id]: 'owner' });
      expect((await alice.client.put(member(id, bob.id), { role: 'member' })).status).toBe(204);
      expect(await memberRows(id)).toEqual({ [bob.id]: 'member' });
      expect((await alice.client.put(member(id, carol.id))).status).toBe(204);
      expect((await alice.client.put(member(id, carol.id), {})).status).toBe(204);
      expect(await memberRows(id)).toEqual({ [bob.id]: 'member', [carol.id]: 'member' });
      expect((await alice.client.get(team(id))).body.members).toBe(2);
    });

    it('rejects bad input with 400 and writes nothing', async () => {
      const id = await createTeam('Single bad');
      for (const body of [{ role: 'admin' }, { role: null }, { role: 3 }, { role: 'owner', extra: true }]) {
        expectError(await alice.client.put(member(id, bob.id), body), 400);
      }
      expect(await memberRows(id)).toEqual({});
    });

    it('is 404 for users outside the organization, 403 for non-managers, 404 for non-members', async () => {
      const id = await createTeam('Single guarded', [bob.id]);
      expectError(await alice.client.put(member(id, frank.id), { role: 'member' }), 404);
      expectError(await alice.client.put(member(id, 'no-such-user'), { role: 'member' }), 404);
      expectError(await bob.client.put(member(id, carol.id), { role: 'member' }), 403);
      expectError(await bob.client.put(member(id, bob.id), { role: 'owner' }), 403);
      expectError(await erin.client.put(member(id, frank.id), { role: 'member' }), 404);
      const foreign = await createTeam('Foreign', [], erin, otherOrgId);
      expectError(await alice.client.put(member(foreign, bob.id), { role: 'member' }), 404);
      expect(await memberRows(id)).toEqual({ [bob.id]: 'member' });
      expect(await memberRows(foreign)).toEqual({});
    });
  });

  describe('DELETE /orgs/{organizationId}/teams/{teamId}/members/{userId}', () => {
    it('answers 205 when removed and 204 when the user was not in the team', async () => {
      const id = await createTeam('Leaving', [bob.id, carol.id]);
      expect((await alice.client.delete(member(id, bob.id))).status).toBe(205);
      expect((await alice.client.delete(member(id, bob.id))).status).toBe(204);
      expect((await alice.client.delete(member(id, frank.id))).status).toBe(204);
      expect(await memberRows(id)).toEqual({ [carol.id]: 'member' });
      expect((await alice.client.get(team(id))).body.members).toBe(1);
    });

    it('is 403 for members removing others; anyone may leave; 404 outside', async () => {
      const id = await createTeam('Exit', [bob.id, carol.id]);
      expectError(await bob.client.delete(member(id, carol.id)), 403);
      expect((await bob.client.delete(member(id, bob.id))).status).toBe(205);
      expectError(await erin.client.delete(member(id, carol.id)), 404);
      expectError(await alice.client.delete(member('no-such-team', carol.id)), 404);
      const foreign = await createTeam('Foreign', [frank.id], erin, otherOrgId);
      expectError(await alice.client.delete(member(foreign, frank.id)), 404);
      expect(await memberRows(foreign)).toEqual({ [frank.id]: 'member' });
      expect(await memberRows(id)).toEqual({ [carol.id]: 'member' });
    });
  });

  describe('GET /orgs/{organizationId}/members/{userId}/teams', () => {
    let org: string;
    let admin: TestUser;
    let reader: TestUser;
    let guest: TestUser;
    const ids: string[] = [];

    beforeAll(async () => {
      admin = await t.user('MT Admin');
      reader = await t.user('MT Reader');
      guest = await t.user('MT Guest');
      org = await t.organization(admin, [
        [reader, 'read'],
        [guest, null],
      ]);
      for (const title of ['Red', 'Green', 'Blue', 'Greenish']) {
        ids.push(await createTeam(title, [reader.id], admin, org));
        t.clock.advance(1000);
      }
      ids.push(await createTeam('Not mine', [guest.id], admin, org));
      await admin.client.must.put(member(ids[1], reader.id, org), { role: 'owner' });
    });

    it('lists the member’s teams with their role, and the caller’s own permissions', async () => {
      const res = await admin.client.get(memberTeams(reader.id, org));
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(4);
      expect(res.body.items.map((i: any) => i.team.id)).toEqual(ids.slice(0, 4));
      expect(res.body.items[1]).toEqual({
        team: expect.objectContaining({ object: 'team', id: ids[1], title: 'Green', members: 1, permissions: { admin: true, view: true } }),
        member: { role: 'owner' },
      });
      expect(res.body.items[0].member).toEqual({ role: 'member' });
      const own = await reader.client.get(memberTeams(reader.id, org));
      expect(own.body.items[0].team.permissions).toEqual({ admin: false, view: true });
      expect(own.body.items[1].team.permissions).toEqual({ admin: true, view: true });
    });

    it('filters by title and pages', async () => {
      const filtered = await reader.client.get(memberTeams(reader.id, org), { title: 'GREEN' });
      expect(filtered.body.items.map((i: any) => i.team.title)).toEqual(['Green', 'Greenish']);
      const seen: string[] = [];
      let page: string | undefined;
      let pages = 0;
      do {
        const res = await admin.client.get(memberTeams(reader.id, org), { limit: 3, ...(page ? { page } : {}) });
        seen.push(...res.body.items.map((i: any) => i.team.id));
        page = res.body.next?.page;
        pages++;
      } while (page && pages < 10);
      expect(pages).toBe(2);
      expect(seen).toEqual(ids.slice(0, 4));
      expectError(await admin.client.get(memberTeams(reader.id, org), { limit: 1001 }), 400);
    });

    it('lets guests list only their own teams', async () => {
      const own = await guest.client.get(memberTeams(guest.id, org));
      expect(own.status).toBe(200);
      expect(own.body.items.map((i: any) => i.team.id)).toEqual([ids[4]]);
      expectError(await guest.client.get(memberTeams(reader.id, org)), 404);
    });

    it('is 404 for non-members, and for users who are not members', async () => {
      expectError(await erin.client.get(memberTeams(reader.id, org)), 404);
      expectError(await admin.client.get(memberTeams(frank.id, org)), 404);
      expectError(await admin.client.get(memberTeams('no-such-user', org)), 404);
    });
  });

  describe('TeamsService, for other modules', () => {
    it('finds a team only within its organization', async () => {
      const service = t.get<TeamsService>(TeamsService);
      const id = await createTeam('Findable');
      expect(await service.findInOrganization(orgId, id)).toMatchObject({ id, organizationId: orgId, title: 'Findable' });
      expect(await service.findInOrganization(otherOrgId, id)).toBeNull();
    });

    it('takes a leaving user out of every team of that organization only', async () => {
      const service = t.get<TeamsService>(TeamsService);
      const shared = await t.user('Shared');
      const org = await t.organization(alice, [[shared, 'read']], 'Leaving org');
      const other = await t.organization(erin, [[shared, 'read']], 'Staying org');
      const a = await createTeam('A', [shared.id, alice.id], alice, org);
      const b = await createTeam('B', [shared.id], alice, org);
      const kept = await createTeam('Kept', [shared.id], erin, other);
      await service.removeUserFromOrganizationTeams(org, shared.id);
      expect(await memberRows(a)).toEqual({ [alice.id]: 'member' });
      expect(await memberRows(b)).toEqual({});
      expect(await memberRows(kept)).toEqual({ [shared.id]: 'member' });
    });
  });

  describe('tenant isolation', () => {
    it('a member of another organization gets 404 on every path', async () => {
      const id = await createTeam('Isolated', [bob.id]);
      const before = await memberRows(id);
      const attempts = [
        () => erin.client.get(teams()),
        () => erin.client.put(teams(), { title: 'x' }),
        () => erin.client.get(team(id)),
        () => erin.client.patch(team(id), { title: 'x' }),
        () => erin.client.delete(team(id)),
        () => erin.client.get(members(id)),
        () => erin.client.put(members(id), { add: [frank.id] }),
        () => erin.client.put(member(id, frank.id), { role: 'owner' }),
        () => erin.client.delete(member(id, bob.id)),
        () => erin.client.get(memberTeams(bob.id)),
      ];
      for (const attempt of attempts) expectError(await attempt(), 404);
      expect((await alice.client.get(team(id))).body.title).toBe('Isolated');
      expect(await memberRows(id)).toEqual(before);
    });
  });
});
