import { TestApp, TestUser } from '@app/testing';

/**
 * Sharing spaces and collections with users and teams:
 * /v1/spaces/{spaceId}/permissions... and /v1/collections/{collectionId}/permissions...
 * Behaviour is asserted through what the people shared with can then do.
 */
describe('sharing', () => {
  let t: TestApp;
  let alice: TestUser; // admin of org
  let bob: TestUser; // read member of org, in the Writers team
  let carol: TestUser; // edit member of org, in no team
  let gus: TestUser; // guest of org
  let erin: TestUser; // admin of another org only
  let frank: TestUser; // read member of the other org only
  let org: string;
  let otherOrg: string;
  let writers: string; // team of org with bob
  let foreignTeam: string; // team of the other org with frank

  type Kind = 'spaces' | 'collections';
  const perms = (kind: Kind, id: string) => `/v1/${kind}/${id}/permissions`;
  const userPerm = (kind: Kind, id: string, userId: string) => `${perms(kind, id)}/users/${userId}`;
  const teamPerm = (kind: Kind, id: string, teamId: string) => `${perms(kind, id)}/teams/${teamId}`;

  function expectError(res: { status: number; body: any }, status: number, message?: RegExp) {
    expect(res.status).toBe(status);
    expect(res.body).toEqual({ error: { code: status, message: expect.any(String) } });
    if (message) expect(res.body.error.message).toMatch(message);
  }

  async function createSpace(body: Record<string, unknown> = {}, by = alice, organizationId = org): Promise<string> {
    const res = await by.client.post(`/v1/orgs/${organizationId}/spaces`, { title: 'Space', ...body });
    expect(res.status).toBe(201);
    return res.body.id as string;
  }

  /** A space (or collection) members get no default access to: only grants open it. */
  async function lockedSpace(body: Record<string, unknown> = {}): Promise<string> {
    const id = await createSpace(body);
    expect((await alice.client.patch(`/v1/spaces/${id}`, { defaultLevel: null })).status).toBe(200);
    return id;
  }

  async function createCollection(body: Record<string, unknown> = {}, by = alice, organizationId = org): Promise<string> {
    const res = await by.client.post(`/v1/orgs/${organizationId}/collections`, { title: 'Collection', ...body });
    expect(res.status).toBe(201);
    return res.body.id as string;
  }

  async function createTeam(title: string, members: string[], by = alice, organizationId = org): Promise<string> {
    const res = await by.client.put(`/v1/orgs/${organizationId}/teams`, { title, members });
    expect(res.status).toBe(201);
    return res.body.id as string;
  }

  async function share(kind: Kind, id: string, body: Record<string, unknown>, by = alice): Promise<void> {
    const res = await by.client.post(perms(kind, id), body);
    expect(res.status).toBe(204);
  }

  /** Every grant row, for "nothing was written" checks. */
  async function grantRows(): Promise<Record<string, unknown>[]> {
    return t.dataSource.query(
      `SELECT organization_id, space_id, collection_id, user_id, team_id, role FROM content_grants ORDER BY id`,
    );
  }

  const byPrincipal = (a: { principal: string }, b: { principal: string }) => (a.principal < b.principal ? -1 : a.principal > b.principal ? 1 : 0);

  async function grantsOn(kind: Kind, id: string): Promise<{ principal: string; role: string; organization_id: string }[]> {
    const column = kind === 'spaces' ? 'space_id' : 'collection_id';
    const rows: { principal: string; role: string; organization_id: string }[] = await t.dataSource.query(
      `SELECT coalesce(user_id, team_id) AS principal, role, organization_id FROM content_grants WHERE ${column} = $1`,
      [id],
    );
    return rows.sort(byPrincipal);
  }

  /** Follows `next.page` to the end; checks `count` on every page. */
  async function walk(user: TestUser, path: string, limit: number): Promise<{ items: any[]; pages: number }> {
    const items: any[] = [];
    let page: string | undefined;
    let pages = 0;
    let count: number | undefined;
    do {
      const res = await user.client.get(path, { limit, ...(page ? { page } : {}) });
      expect(res.status).toBe(200);
      expect(res.body.items.length).toBeLessThanOrEqual(limit);
      count ??= res.body.count;
      expect(res.body.count).toBe(count);
      items.push(...res.body.items);
      page = res.body.next?.page;
      if (++pages > 50) throw new Error('pagination does not end');
    } while (page);
    expect(items).toHaveLength(count!);
    return { items, pages };
  }

  const memberSpaces = async (userId: string) => {
    const res = await alice.client.get(`/v1/orgs/${org}/members/${userId}/spaces`, { limit: 1000 });
    expect(res.status).toBe(200);
    return new Map<string, string>(res.body.items.map((item: any) => [item.space.id, item.permission]));
  };
  const memberSpaceCount = async (userId: string) => {
    const res = await alice.client.get(`/v1/orgs/${org}/members/${userId}`);
    expect(res.status).toBe(200);
    return res.body.spaces as number;
  };
  const teamSpaceCount = async (teamId: string) => {
    const res = await alice.client.get(`/v1/orgs/${org}/teams/${teamId}`);
    expect(res.status).toBe(200);
    return res.body.spaces as number;
  };

  beforeAll(async () => {
    t = await TestApp.start();
    alice = await t.user('Alice');
    bob = await t.user('Bob');
    carol = await t.user('Carol');
    gus = await t.user('Gus');
    erin = await t.user('Erin');
    frank = await t.user('Frank');
    org = await t.organization(alice, [
      [bob, 'read'],
      [carol, 'edit'],
      [gus, null],
    ]);
    otherOrg = await t.organization(erin, [[frank, 'read']], 'Other Org');
    writers = await createTeam('Writers', [bob.id]);
    foreignTeam = await createTeam('Foreign', [frank.id], erin, otherOrg);
  });
  afterAll(() => t.close());

  describe('space grants', () => {
    it('a team grant opens a closed space to its members, and removing it closes it again', async () => {
      const s = await lockedSpace({ title: 'Closed' });
      expectError(await bob.client.get(`/v1/spaces/${s}`), 404);
      expectError(await bob.client.patch(`/v1/spaces/${s}`, { title: 'Mine' }), 404);
      expect(await teamSpaceCount(writers)).toBe(0);
      const bobsBefore = await memberSpaceCount(bob.id);

      await share('spaces', s, { role: 'edit', teams: [writers] });
      expect(await grantsOn('spaces', s)).toEqual([{ principal: writers, role: 'edit', organization_id: org }]);
      const seen = await bob.client.get(`/v1/spaces/${s}`);
      expect(seen.status).toBe(200);
      expect(seen.body.permissions).toMatchObject({ view: true, edit: true, admin: false });
      const renamed = await bob.client.patch(`/v1/spaces/${s}`, { title: 'Renamed by Bob' });
      expect(renamed.status).toBe(200);
      expect(renamed.body.title).toBe('Renamed by Bob');
      // Carol (edit member, not in the team) still cannot see it.
      expectError(await carol.client.get(`/v1/spaces/${s}`), 404);
      // Counts and the member's space list reflect the grant.
      expect(await teamSpaceCount(writers)).toBe(1);
      expect(await memberSpaceCount(bob.id)).toBe(bobsBefore + 1);
      expect((await memberSpaces(bob.id)).get(s)).toBe('edit');
      expect((await memberSpaces(carol.id)).has(s)).toBe(false);

      // role null removes the grant.
      await share('spaces', s, { role: null, teams: [writers] });
      expect(await grantsOn('spaces', s)).toEqual([]);
      expectError(await bob.client.get(`/v1/spaces/${s}`), 404);
      expect(await teamSpaceCount(writers)).toBe(0);
      expect(await memberSpaceCount(bob.id)).toBe(bobsBefore);
      expect((await memberSpaces(bob.id)).has(s)).toBe(false);

      // PATCH sets a role; a read grant lets Bob see but not edit.
      expect((await alice.client.patch(teamPerm('spaces', s, writers), { role: 'read' })).status).toBe(204);
      expect((await bob.client.get(`/v1/spaces/${s}`)).status).toBe(200);
      expectError(await bob.client.patch(`/v1/spaces/${s}`, { title: 'Nope' }), 403);
      expect((await memberSpaces(bob.id)).get(s)).toBe('read');
      expect((await alice.client.patch(teamPerm('spaces', s, writers), { role: 'edit' })).status).toBe(204);
      expect((await bob.client.patch(`/v1/spaces/${s}`, { title: 'Edited again' })).status).toBe(200);

      // DELETE: 205 when there was a grant, 204 when there was none.
      expect((await alice.client.delete(teamPerm('spaces', s, writers))).status).toBe(205);
      expectError(await bob.client.get(`/v1/spaces/${s}`), 404);
      expect((await alice.client.delete(teamPerm('spaces', s, writers))).status).toBe(204);
      // PATCH role null removes too.
      await share('spaces', s, { role: 'comment', teams: [writers] });
      expect((await bob.client.get(`/v1/spaces/${s}`)).status).toBe(200);
      expect((await alice.client.patch(teamPerm('spaces', s, writers), { role: null })).status).toBe(204);
      expectError(await bob.client.get(`/v1/spaces/${s}`), 404);
      expect(await teamSpaceCount(writers)).toBe(0);
    });

    it('shares with users, guests included; a user granted admin manages the space', async () => {
      const s = await lockedSpace({ title: 'For Gus' });
      expectError(await gus.client.get(`/v1/spaces/${s}`), 404);
      await share('spaces', s, { role: 'comment', users: [gus.id] });
      const seen = await gus.client.get(`/v1/spaces/${s}`);
      expect(seen.status).toBe(200);
      expect(seen.body.permissions).toMatchObject({ comment: true, edit: false, admin: false });
      expect(await memberSpaceCount(gus.id)).toBe(1);
      // A guest who is not admin cannot share further.
      expectError(await gus.client.post(perms('spaces', s), { role: 'read', users: [bob.id] }), 403);

      const listed = await alice.client.get(`${perms('spaces', s)}/users`);
      expect(listed.status).toBe(200);
      expect(listed.body).toEqual({
        items: [
          {
            permission: 'comment',
            user: {
              object: 'user',
              id: gus.id,
              displayName: 'Gus',
              email: gus.email,
              urls: { location: `http://docs.test/v1/users/${gus.id}` },
            },
          },
        ],
        count: 1,
      });

      expect((await alice.client.patch(userPerm('spaces', s, gus.id), { role: 'admin' })).status).toBe(204);
      // Gus, now admin of the space (a guest of the organization), shares it with Bob and lists it.
      t.clock.advance(1000);
      await share('spaces', s, { role: 'read', users: [bob.id] }, gus);
      expect((await bob.client.get(`/v1/spaces/${s}`)).status).toBe(200);
      const byGus = await gus.client.get(`${perms('spaces', s)}/users`);
      expect(byGus.body.items.map((i: any) => [i.user.id, i.permission])).toEqual([
        [gus.id, 'admin'],
        [bob.id, 'read'],
      ]);
      // Bob can read the lists but not change them.
      expect((await bob.client.get(`${perms('spaces', s)}/users`)).status).toBe(200);
      expect((await bob.client.get(`${perms('spaces', s)}/teams`)).status).toBe(200);

      expect((await alice.client.delete(userPerm('spaces', s, gus.id))).status).toBe(205);
      expectError(await gus.client.get(`/v1/spaces/${s}`), 404);
      expect((await alice.client.delete(userPerm('spaces', s, gus.id))).status).toBe(204);
      expect(await memberSpaceCount(gus.id)).toBe(0);
      // role null on POST removes a user grant too.
      await share('spaces', s, { role: null, users: [bob.id] });
      expectError(await bob.client.get(`/v1/spaces/${s}`), 404);
      expect(await grantsOn('spaces', s)).toEqual([]);
    });

    it('sets one role for several users and teams at once, updating existing grants in place', async () => {
      const s = await lockedSpace();
      await share('spaces', s, { role: 'read', users: [bob.id] });
      const [before] = await t.dataSource.query(`SELECT id, created_at FROM content_grants WHERE space_id = $1`, [s]);
      t.clock.advance(1000);
      await share('spaces', s, { role: 'review', users: [bob.id, carol.id, bob.id], teams: [writers] });
      expect(await grantsOn('spaces', s)).toEqual(
        [
          { principal: bob.id, role: 'review', organization_id: org },
          { principal: carol.id, role: 'review', organization_id: org },
          { principal: writers, role: 'review', organization_id: org },
        ].sort(byPrincipal),
      );
      const [after] = await t.dataSource.query(`SELECT id, created_at FROM content_grants WHERE space_id = $1 AND user_id = $2`, [s, bob.id]);
      expect(after).toEqual(before);
      const teamsList = await carol.client.get(`${perms('spaces', s)}/teams`);
      expect(teamsList.status).toBe(200);
      expect(teamsList.body).toEqual({
        items: [
          {
            permission: 'review',
            team: {
              object: 'team',
              id: writers,
              title: 'Writers',
              members: 1,
              spaces: 1,
              createdAt: expect.any(String),
              permissions: { admin: false, view: true },
            },
          },
        ],
        count: 1,
      });
    });
  });

  describe('collection grants', () => {
    it('reach every space inside the collection, nested ones too, whatever their own default level', async () => {
      const c = await createCollection({ title: 'Private' });
      expect((await alice.client.patch(`/v1/collections/${c}`, { defaultLevel: null })).status).toBe(200);
      const inheriting = await createSpace({ title: 'Inherits', parent: c });
      const explicit = await createSpace({ title: 'Explicit', parent: c });
      expect((await alice.client.patch(`/v1/spaces/${explicit}`, { defaultLevel: null })).status).toBe(200);
      const nested = await createCollection({ title: 'Nested', parent: c });
      const deep = await createSpace({ title: 'Deep', parent: nested });
      const outside = await lockedSpace({ title: 'Outside' });
      const all = [inheriting, explicit, deep];

      for (const s of all) expectError(await bob.client.get(`/v1/spaces/${s}`), 404);
      expectError(await bob.client.get(`/v1/collections/${c}`), 404);
      const writersSpaces = await teamSpaceCount(writers);

      await share('collections', c, { role: 'edit', users: [bob.id] });
      expect(await grantsOn('collections', c)).toEqual([{ principal: bob.id, role: 'edit', organization_id: org }]);
      expect((await bob.client.get(`/v1/collections/${c}`)).status).toBe(200);
      expect((await bob.client.get(`/v1/collections/${nested}`)).status).toBe(200);
      for (const s of all) {
        const seen = await bob.client.get(`/v1/spaces/${s}`);
        expect(seen.status).toBe(200);
        expect(seen.body.permissions.edit).toBe(true);
        expect((await bob.client.patch(`/v1/spaces/${s}`, { title: 'Bob was here' })).status).toBe(200);
      }
      expectError(await bob.client.get(`/v1/spaces/${outside}`), 404);
      const listed = await memberSpaces(bob.id);
      for (const s of all) expect(listed.get(s)).toBe('edit');
      expect(listed.has(outside)).toBe(false);
      // Carol (org edit, no grant) still sees none of it.
      for (const s of all) expectError(await carol.client.get(`/v1/spaces/${s}`), 404);

      const users = await alice.client.get(`${perms('collections', c)}/users`);
      expect(users.body.items.map((i: any) => [i.user.id, i.permission])).toEqual([[bob.id, 'edit']]);

      expect((await alice.client.delete(userPerm('collections', c, bob.id))).status).toBe(205);
      for (const s of all) expectError(await bob.client.get(`/v1/spaces/${s}`), 404);
      expectError(await bob.client.get(`/v1/collections/${c}`), 404);
      expect((await alice.client.delete(userPerm('collections', c, bob.id))).status).toBe(204);

      // Through a team, with PATCH and role null.
      await share('collections', c, { role: 'read', teams: [writers] });
      for (const s of all) expect((await bob.client.get(`/v1/spaces/${s}`)).status).toBe(200);
      expectError(await bob.client.patch(`/v1/spaces/${inheriting}`, { title: 'Nope' }), 403);
      expect((await alice.client.patch(teamPerm('collections', c, writers), { role: 'edit' })).status).toBe(204);
      expect((await bob.client.patch(`/v1/spaces/${inheriting}`, { title: 'Now yes' })).status).toBe(200);
      const teams = await bob.client.get(`${perms('collections', c)}/teams`);
      expect(teams.body.items.map((i: any) => [i.team.id, i.permission])).toEqual([[writers, 'edit']]);
      // Collection grants are not space grants: the team's space count does not change.
      expect(await teamSpaceCount(writers)).toBe(writersSpaces);
      await share('collections', c, { role: null, teams: [writers] });
      for (const s of all) expectError(await bob.client.get(`/v1/spaces/${s}`), 404);
      expect((await alice.client.delete(teamPerm('collections', c, writers))).status).toBe(204);
      expect(await grantsOn('collections', c)).toEqual([]);
    });

    it('makes a user granted admin on a collection able to share it, but not its parent', async () => {
      const parent = await createCollection({ title: 'Parent' });
      const child = await createCollection({ title: 'Child', parent });
      await share('collections', child, { role: 'admin', users: [carol.id] });
      await share('collections', child, { role: 'read', users: [gus.id] }, carol);
      expect((await gus.client.get(`/v1/collections/${child}`)).status).toBe(200);
      expectError(await carol.client.post(perms('collections', parent), { role: 'read', users: [gus.id] }), 403);
      expectError(await gus.client.get(`/v1/collections/${parent}`), 404);
    });
  });

  describe('authorization', () => {
    let visible: string; // a space every member sees (defaultLevel inherit)
    let visibleCollection: string;

    beforeAll(async () => {
      visible = await createSpace({ title: 'Visible' });
      visibleCollection = await createCollection({ title: 'Visible collection' });
      await share('spaces', visible, { role: 'edit', users: [carol.id], teams: [writers] });
      await share('collections', visibleCollection, { role: 'edit', users: [carol.id], teams: [writers] });
    });

    it('lets members who only read list, but not change, the grants (403), writing nothing', async () => {
      for (const [kind, id] of [['spaces', visible], ['collections', visibleCollection]] as [Kind, string][]) {
        const before = await grantRows();
        expect((await bob.client.get(`${perms(kind, id)}/users`)).status).toBe(200);
        expect((await bob.client.get(`${perms(kind, id)}/teams`)).status).toBe(200);
        // Carol has edit through a grant: still not enough to share.
        for (const who of [bob, carol]) {
          expectError(await who.client.post(perms(kind, id), { role: 'admin', users: [who.id] }), 403, /admin/);
          expectError(await who.client.patch(userPerm(kind, id, carol.id), { role: 'admin' }), 403);
          expectError(await who.client.delete(userPerm(kind, id, carol.id)), 403);
          expectError(await who.client.patch(teamPerm(kind, id, writers), { role: 'admin' }), 403);
          expectError(await who.client.delete(teamPerm(kind, id, writers)), 403);
        }
        expect(await grantRows()).toEqual(before);
      }
    });

    it('answers 404 on every path to members of another organization and for unknown content, writing nothing', async () => {
      const before = await grantRows();
      const targets: [Kind, string][] = [
        ['spaces', visible],
        ['collections', visibleCollection],
        ['spaces', 'no-such-space'],
        ['collections', 'no-such-collection'],
      ];
      for (const [kind, id] of targets) {
        for (const who of [erin, frank]) {
          expectError(await who.client.post(perms(kind, id), { role: 'admin', users: [who.id] }), 404);
          expectError(await who.client.get(`${perms(kind, id)}/users`), 404);
          expectError(await who.client.get(`${perms(kind, id)}/teams`), 404);
          expectError(await who.client.patch(userPerm(kind, id, carol.id), { role: 'read' }), 404);
          expectError(await who.client.delete(userPerm(kind, id, carol.id)), 404);
          expectError(await who.client.patch(teamPerm(kind, id, writers), { role: 'read' }), 404);
          expectError(await who.client.delete(teamPerm(kind, id, writers)), 404);
        }
        if (id.startsWith('no-such')) {
          expectError(await alice.client.post(perms(kind, id), { role: 'read', users: [bob.id] }), 404);
          expectError(await alice.client.get(`${perms(kind, id)}/users`), 404);
        }
      }
      // Nor does the other organization's admin reach our content through their own.
      const theirs = await createSpace({}, erin, otherOrg);
      expectError(await alice.client.get(`${perms('spaces', theirs)}/users`), 404);
      expectError(await alice.client.post(perms('spaces', theirs), { role: 'read', users: [bob.id] }), 404);
      expect(await grantRows()).toEqual(before);
    });

    it('refuses users and teams of another organization (400 naming only them), writing nothing', async () => {
      const s = await lockedSpace();
      for (const [kind, id] of [['spaces', s], ['collections', visibleCollection]] as [Kind, string][]) {
        const before = await grantRows();
        const foreignUser = await alice.client.post(perms(kind, id), { role: 'read', users: [bob.id, frank.id] });
        expectError(foreignUser, 400);
        expect(foreignUser.body.error.message).toContain(frank.id);
        expect(foreignUser.body.error.message).not.toContain(bob.id);
        // A foreign user reads exactly like an unknown id: nothing about the other organization leaks.
        const unknownUser = await alice.client.post(perms(kind, id), { role: 'read', users: ['nobody'] });
        expectError(unknownUser, 400);
        expect(unknownUser.body.error.message.replace('nobody', frank.id)).toBe(foreignUser.body.error.message);

        const team = await alice.client.post(perms(kind, id), { role: 'read', teams: [writers, foreignTeam] });
        expectError(team, 400);
        expect(team.body.error.message).toContain(foreignTeam);
        expect(team.body.error.message).not.toContain(writers);
        expect(team.body.error.message).not.toMatch(/Foreign/);
        const unknownTeam = await alice.client.post(perms(kind, id), { role: 'read', teams: ['no-team'] });
        expect(unknownTeam.body.error.message.replace('no-team', foreignTeam)).toBe(team.body.error.message);

        // A valid user next to a foreign team: all or nothing.
        expectError(await alice.client.post(perms(kind, id), { role: 'read', users: [bob.id], teams: [foreignTeam] }), 400);
        // A null role does not skip the check.
        expectError(await alice.client.post(perms(kind, id), { role: null, users: [frank.id] }), 400);

        // Path ids of other organizations are not found.
        expectError(await alice.client.patch(userPerm(kind, id, frank.id), { role: 'read' }), 404);
        expectError(await alice.client.patch(userPerm(kind, id, 'nobody'), { role: 'read' }), 404);
        expectError(await alice.client.patch(teamPerm(kind, id, foreignTeam), { role: 'read' }), 404);
        expect(await grantRows()).toEqual(before);
        // Deleting what is not there is a 204, whoever it names.
        expect((await alice.client.delete(userPerm(kind, id, frank.id))).status).toBe(204);
        expect((await alice.client.delete(teamPerm(kind, id, foreignTeam))).status).toBe(204);
      }
      expectError(await frank.client.get(`/v1/spaces/${s}`), 404);
    });
  });

  describe('bad input', () => {
    it('rejects malformed bodies with 400 and writes nothing', async () => {
      const s = await lockedSpace();
      const c = await createCollection();
      const bodies: unknown[] = [
        {},
        { users: [bob.id] },
        { role: 'edit' },
        { role: null },
        { role: 'edit', users: [] },
        { role: 'edit', teams: [] },
        { role: 'edit', users: [bob.id], teams: [] },
        { role: 'owner', users: [bob.id] },
        { role: 'guest', users: [bob.id] },
        { role: 3, users: [bob.id] },
        { role: 'edit', users: bob.id },
        { role: 'edit', users: [42] },
        { role: 'edit', users: [null] },
        { role: 'edit', users: [''] },
        { role: 'edit', users: ['x'.repeat(65)] },
        { role: 'edit', users: Array.from({ length: 1001 }, (_, i) => `u${i}`) },
        { role: 'edit', teams: { id: writers } },
        { role: 'edit', users: null },
        { role: 'edit', users: [bob.id], extra: true },
      ];
      const before = await grantRows();
      for (const [kind, id] of [['spaces', s], ['collections', c]] as [Kind, string][]) {
        for (const body of bodies) expectError(await alice.client.post(perms(kind, id), body), 400);
        for (const body of [{}, { role: 'owner' }, { role: 5 }, { role: 'edit', extra: 1 }, { role: ['edit'] }]) {
          expectError(await alice.client.patch(userPerm(kind, id, bob.id), body), 400);
          expectError(await alice.client.patch(teamPerm(kind, id, writers), body), 400);
        }
        const malformed = await alice.client.raw('post', perms(kind, id), '{"role": "edit", "users": [');
        expectError(malformed, 400);
        for (const list of ['users', 'teams']) {
          expectError(await alice.client.get(`${perms(kind, id)}/${list}`, { limit: 1001 }), 400, /limit/);
          expectError(await alice.client.get(`${perms(kind, id)}/${list}`, { limit: 0 }), 400, /limit/);
          expectError(await alice.client.get(`${perms(kind, id)}/${list}`, { limit: 'ten' }), 400, /limit/);
          expectError(await alice.client.get(`${perms(kind, id)}/${list}`, { page: 'not-a-cursor' }), 400, /page/);
          for (const values of [['not a date', 'x'], ['1', 'x'], ['2026-02-30T00:00:00.000Z', 'x'], [1, 'x'], ['2026-01-01T00:00:00.000Z', null]]) {
            const forged = Buffer.from(JSON.stringify(values)).toString('base64url');
            expectError(await alice.client.get(`${perms(kind, id)}/${list}`, { page: forged }), 400, /page/);
          }
          expectError(await alice.client.get(`${perms(kind, id)}/${list}`, { sort: 'role' }), 400);
        }
      }
      expect(await grantRows()).toEqual(before);
      // And the 400 names what is wrong.
      expectError(await alice.client.post(perms('spaces', s), { role: 'owner', users: [bob.id] }), 400, /role/);
      expectError(await alice.client.post(perms('spaces', s), { role: 'edit', users: [] }), 400, /users/);
      expectError(await alice.client.post(perms('spaces', s), { role: 'edit' }), 400, /users.*teams/);
      expectError(await alice.client.post(perms('spaces', s), { role: 'edit', users: [bob.id], extra: 1 }), 400, /extra/);
    });
  });

  describe('lists', () => {
    it('walk page by page, oldest grant first, every grant exactly once', async () => {
      const readers: TestUser[] = [];
      for (let i = 0; i < 5; i++) readers.push(await t.user(`Reader ${i}`));
      for (const reader of readers) {
        const invited = await alice.client.post(`/v1/orgs/${org}/invites`, { emails: [{ email: reader.email, role: 'read' }] });
        expect(invited.status).toBe(200);
      }
      const teamIds: string[] = [];
      for (let i = 0; i < 3; i++) teamIds.push(await createTeam(`Team ${i}`, [readers[i].id]));

      for (const [kind, id] of [['spaces', await lockedSpace()], ['collections', await createCollection()]] as [Kind, string][]) {
        // Newest first in the requests, so that order by id or by request would differ from order by time.
        const order = [...readers].reverse();
        for (const reader of order) {
          t.clock.advance(1000);
          await share(kind, id, { role: 'read', users: [reader.id] });
        }
        // Two grants in one request share a creation time; the id breaks the tie.
        t.clock.advance(1000);
        await share(kind, id, { role: 'comment', users: [bob.id, carol.id] });
        for (const teamId of teamIds) {
          t.clock.advance(1000);
          await share(kind, id, { role: 'edit', teams: [teamId] });
        }

        const users = await walk(alice, `${perms(kind, id)}/users`, 2);
        expect(users.pages).toBe(4);
        const userIds = users.items.map((i) => i.user.id);
        expect(userIds.slice(0, 5)).toEqual(order.map((r) => r.id));
        expect(new Set(userIds.slice(5))).toEqual(new Set([bob.id, carol.id]));
        expect(new Set(userIds).size).toBe(7);
        expect(users.items.map((i) => i.permission)).toEqual(['read', 'read', 'read', 'read', 'read', 'comment', 'comment']);

        const teams = await walk(bob, `${perms(kind, id)}/teams`, 2);
        expect(teams.pages).toBe(2);
        expect(teams.items.map((i) => i.team.id)).toEqual(teamIds);
        expect(teams.items.map((i) => i.team.members)).toEqual([1, 1, 1]);

        // A grant changed while walking keeps its place.
        const first = await alice.client.get(`${perms(kind, id)}/users`, { limit: 3 });
        expect((await alice.client.patch(userPerm(kind, id, order[0].id), { role: 'admin' })).status).toBe(204);
        const rest = await alice.client.get(`${perms(kind, id)}/users`, { limit: 1000, page: first.body.next.page });
        expect([...first.body.items, ...rest.body.items].map((i: any) => i.user.id)).toEqual(userIds);
        expect(first.body.items[0]).toMatchObject({ permission: 'read', user: { id: order[0].id } });
        const again = await alice.client.get(`${perms(kind, id)}/users`, { limit: 1 });
        expect(again.body.items[0]).toMatchObject({ permission: 'admin', user: { id: order[0].id } });
      }
    });

    it('answers an empty list for content shared with nobody', async () => {
      const s = await lockedSpace();
      expect((await alice.client.get(`${perms('spaces', s)}/users`)).body).toEqual({ items: [], count: 0 });
      expect((await alice.client.get(`${perms('spaces', s)}/teams`)).body).toEqual({ items: [], count: 0 });
    });
  });

  describe('GET .../permissions/aggregate', () => {
    // A separate organization, so that its audience is known exactly.
    let owner: TestUser; // admin
    let reader: TestUser; // read, in the team
    let editor: TestUser; // edit
    let creator: TestUser; // create
    let guest: TestUser; // guest, in the team
    let org2: string;
    let team: string;
    let members: TestUser[];

    const aggregate = (kind: Kind, id: string) => `${perms(kind, id)}/aggregate`;

    /** The whole audience, walked two by two, as [userId, role] sorted by user id. */
    async function audience(kind: Kind, id: string, query: Record<string, unknown> = {}, by?: TestUser): Promise<[string, string][]> {
      const items: any[] = [];
      let page: string | undefined;
      let count: number | undefined;
      let pages = 0;
      do {
        const res = await (by ?? owner).client.get(aggregate(kind, id), { ...query, limit: 2, ...(page ? { page } : {}) });
        expect(res.status).toBe(200);
        count ??= res.body.count;
        expect(res.body.count).toBe(count);
        items.push(...res.body.items);
        page = res.body.next?.page;
        if (++pages > 50) throw new Error('pagination does not end');
      } while (page);
      expect(items).toHaveLength(count!);
      const pairs = items.map((i) => [i.user.id, i.permission] as [string, string]);
      expect(new Set(pairs.map(([userId]) => userId)).size).toBe(pairs.length);
      return pairs.sort((a, b) => a[0].localeCompare(b[0]));
    }

    const sorted = (pairs: [TestUser, string][]): [string, string][] =>
      pairs.map(([u, role]) => [u.id, role] as [string, string]).sort((a, b) => a[0].localeCompare(b[0]));

    /** What each member's own space list (computed by the access model) says about the space. */
    async function rolesFromMemberLists(spaceId: string): Promise<[string, string][]> {
      const pairs: [string, string][] = [];
      for (const member of members) {
        const res = await owner.client.get(`/v1/orgs/${org2}/members/${member.id}/spaces`, { limit: 1000 });
        expect(res.status).toBe(200);
        const item = res.body.items.find((i: any) => i.space.id === spaceId);
        if (item) pairs.push([member.id, item.permission]);
      }
      return pairs.sort((a, b) => a[0].localeCompare(b[0]));
    }

    beforeAll(async () => {
      owner = await t.user('Owner');
      reader = await t.user('Reader');
      editor = await t.user('Editor');
      creator = await t.user('Creator');
      guest = await t.user('Guest');
      members = [owner, reader, editor, creator, guest];
      org2 = await t.organization(owner, [
        [reader, 'read'],
        [editor, 'edit'],
        [creator, 'create'],
        [guest, null],
      ], 'Audience Org');
      team = await createTeam('Audience team', [reader.id, guest.id], owner, org2);
    });

    it('lists every member with access by default, with their role, but no guests', async () => {
      const open = await createSpace({}, owner, org2);
      const expected = sorted([
        [owner, 'admin'],
        [reader, 'read'],
        [editor, 'edit'],
        [creator, 'create'],
      ]);
      expect(await audience('spaces', open)).toEqual(expected);
      expect(await rolesFromMemberLists(open)).toEqual(expected);
      // Any member who can read the space may list its audience.
      expect(await audience('spaces', open, {}, reader)).toEqual(expected);
      const all = await owner.client.get(aggregate('spaces', open));
      expect(all.body.items.find((i: any) => i.user.id === owner.id)).toEqual({
        permission: 'admin',
        user: { object: 'user', id: owner.id, displayName: 'Owner', email: owner.email, urls: { location: `http://docs.test/v1/users/${owner.id}` } },
      });
    });

    it('follows default levels, grants to users and to teams, and the role filter', async () => {
      const closed = await createSpace({}, owner, org2);
      expect((await owner.client.patch(`/v1/spaces/${closed}`, { defaultLevel: null })).status).toBe(200);
      expect(await audience('spaces', closed)).toEqual(sorted([[owner, 'admin']]));

      await share('spaces', closed, { role: 'comment', teams: [team] }, owner);
      await share('spaces', closed, { role: 'review', users: [editor.id] }, owner);
      await share('spaces', closed, { role: 'read', users: [reader.id] }, owner); // the team's comment is stronger
      const expected = sorted([
        [owner, 'admin'],
        [reader, 'comment'],
        [editor, 'review'],
        [guest, 'comment'],
      ]);
      expect(await audience('spaces', closed)).toEqual(expected);
      expect(await rolesFromMemberLists(closed)).toEqual(expected);
      expect(await audience('spaces', closed, { role: 'comment' })).toEqual(sorted([[reader, 'comment'], [guest, 'comment']]));
      expect(await audience('spaces', closed, { role: 'admin' })).toEqual(sorted([[owner, 'admin']]));
      expect(await audience('spaces', closed, { role: 'create' })).toEqual([]);

      // Removing the team grant takes the guest out and leaves the reader their own grant.
      expect((await owner.client.delete(teamPerm('spaces', closed, team))).status).toBe(205);
      expect(await audience('spaces', closed)).toEqual(sorted([[owner, 'admin'], [reader, 'read'], [editor, 'review']]));
    });

    it('follows collections: their default level caps members, their grants reach the spaces inside', async () => {
      const c = await createCollection({ title: 'Readers only' }, owner, org2);
      expect((await owner.client.patch(`/v1/collections/${c}`, { defaultLevel: 'read' })).status).toBe(200);
      const inside = await createSpace({ parent: c }, owner, org2);
      const capped = sorted([
        [owner, 'admin'],
        [reader, 'read'],
        [editor, 'read'],
        [creator, 'read'],
      ]);
      expect(await audience('spaces', inside)).toEqual(capped);
      expect(await audience('collections', c)).toEqual(capped);

      await share('collections', c, { role: 'edit', users: [guest.id, reader.id] }, owner);
      const granted = sorted([
        [owner, 'admin'],
        [reader, 'edit'],
        [editor, 'read'],
        [creator, 'read'],
        [guest, 'edit'],
      ]);
      expect(await audience('spaces', inside)).toEqual(granted);
      expect(await rolesFromMemberLists(inside)).toEqual(granted);
      expect(await audience('collections', c)).toEqual(granted);
      expect(await audience('collections', c, { role: 'read' })).toEqual(sorted([[editor, 'read'], [creator, 'read']]));
    });

    it('shows e-mail addresses to non-guest members only: a guest sees only their own, in every list that shows users', async () => {
      const s = await createSpace({}, owner, org2);
      await share('spaces', s, { role: 'comment', users: [guest.id] }, owner);
      const emailsSeenBy = async (who: TestUser, path: string) => {
        const res = await who.client.get(path);
        expect(res.status).toBe(200);
        return new Map<string, string | undefined>(res.body.items.map((item: any) => [item.user.id, item.user.email]));
      };
      const byGuest = await emailsSeenBy(guest, aggregate('spaces', s));
      expect(byGuest.size).toBeGreaterThan(2);
      expect(byGuest.get(guest.id)).toBe(guest.email);
      for (const [id, email] of byGuest) if (id !== guest.id) expect(email).toBeUndefined();
      const byReader = await emailsSeenBy(reader, aggregate('spaces', s));
      expect(byReader.get(owner.id)).toBe(owner.email);
      expect(byReader.get(guest.id)).toBe(guest.email);
      // The user grant list, comments and change requests follow the same rule.
      expect((await emailsSeenBy(guest, `${perms('spaces', s)}/users`)).get(guest.id)).toBe(guest.email);
      const ownerComment = await owner.client.post(`/v1/spaces/${s}/comments`, { body: { markdown: 'Hello' } });
      expect(ownerComment.status).toBe(200);
      const comments = await guest.client.get(`/v1/spaces/${s}/comments`);
      expect(comments.status).toBe(200);
      expect(comments.body.items[0].postedBy).toMatchObject({ id: owner.id });
      expect(comments.body.items[0].postedBy.email).toBeUndefined();
      expect((await reader.client.get(`/v1/spaces/${s}/comments`)).body.items[0].postedBy.email).toBe(owner.email);
      const cr = await owner.client.post(`/v1/spaces/${s}/change-requests`, { subject: 'Draft' });
      expect(cr.status).toBe(201);
      const seenByGuest = await guest.client.get(`/v1/spaces/${s}/change-requests/${cr.body.id}`);
      expect(seenByGuest.status).toBe(200);
      expect(seenByGuest.body.createdBy).toMatchObject({ id: owner.id });
      expect(seenByGuest.body.createdBy.email).toBeUndefined();
      expect((await reader.client.get(`/v1/spaces/${s}/change-requests/${cr.body.id}`)).body.createdBy.email).toBe(owner.email);
    });

    it('is 404 to outsiders and 400 on bad queries', async () => {
      const s = await createSpace({}, owner, org2);
      const c = await createCollection({}, owner, org2);
      for (const [kind, id] of [['spaces', s], ['collections', c]] as [Kind, string][]) {
        for (const who of [erin, bob]) expectError(await who.client.get(aggregate(kind, id)), 404);
        expectError(await owner.client.get(aggregate(kind, id), { role: 'owner' }), 400, /role/);
        expectError(await owner.client.get(aggregate(kind, id), { role: '' }), 400, /role/);
        expectError(await owner.client.get(aggregate(kind, id), { limit: 1001 }), 400, /limit/);
        expectError(await owner.client.get(aggregate(kind, id), { page: 'garbage' }), 400, /page/);
        const forged = Buffer.from(JSON.stringify(['not a date', 'x'])).toString('base64url');
        expectError(await owner.client.get(aggregate(kind, id), { page: forged }), 400, /page/);
        expectError(await owner.client.get(aggregate(kind, id), { sort: 'role' }), 400);
      }
      expectError(await owner.client.get(aggregate('spaces', 'no-such-space')), 404);
    });
  });

  describe('concurrency', () => {
    it('concurrent grants of the same user and team all succeed and leave one grant each', async () => {
      const s = await lockedSpace();
      const roles = ['read', 'comment', 'edit', 'review', 'create', 'admin', 'read', 'edit'];
      const results = await Promise.all([
        ...roles.map((role) => alice.client.post(perms('spaces', s), { role, users: [bob.id, carol.id], teams: [writers] })),
        ...roles.map((role) => alice.client.patch(userPerm('spaces', s, bob.id), { role })),
        ...roles.map((role) => alice.client.patch(teamPerm('spaces', s, writers), { role })),
      ]);
      expect(results.map((r) => r.status)).toEqual(results.map(() => 204));
      const rows = await grantsOn('spaces', s);
      expect(rows.map((r) => r.principal).sort()).toEqual([bob.id, carol.id, writers].sort());
      for (const row of rows) expect(roles).toContain(row.role);
      expect((await bob.client.get(`/v1/spaces/${s}`)).status).toBe(200);

      const removals = await Promise.all([1, 2, 3, 4].map(() => alice.client.delete(userPerm('spaces', s, bob.id))));
      expect(removals.map((r) => r.status).sort()).toEqual([204, 204, 204, 205]);
    });
  });
});
