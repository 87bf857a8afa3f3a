import { randomBytes } from 'node:crypto';
import { TestApp, TestUser } from '@app/testing';
import { whileLocked } from './support/waiting';

/** Organization members: list, get, change role, remove. */
describe('organization members', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t.close());

  const id = () => randomBytes(8).toString('hex');

  /** Invites one user at a time, one second apart, so that joinedAt orders them. */
  async function orgWith(owner: TestUser, members: [TestUser, string | null][]): Promise<string> {
    const orgId = await t.organization(owner);
    for (const [user, role] of members) {
      t.clock.advance(1000);
      const res = await owner.client.post(`/v1/orgs/${orgId}/invites`, { emails: [{ email: user.email, role }] });
      expect(res.status).toBe(200);
    }
    t.clock.advance(1000);
    return orgId;
  }

  const roleOf = async (orgId: string, userId: string): Promise<string | null | undefined> => {
    const rows = await t.dataSource.query('SELECT role FROM organization_members WHERE organization_id = $1 AND user_id = $2', [orgId, userId]);
    return rows.length ? rows[0].role : undefined;
  };

  const adminCount = async (orgId: string): Promise<number> =>
    Number((await t.dataSource.query(`SELECT count(*) AS n FROM organization_members WHERE organization_id = $1 AND role = 'admin'`, [orgId]))[0].n);

  const setLastSeen = (orgId: string, userId: string, at: string) =>
    t.dataSource.query('UPDATE organization_members SET last_seen_at = $3 WHERE organization_id = $1 AND user_id = $2', [orgId, userId, at]);

  async function addTeam(orgId: string, userIds: string[]): Promise<string> {
    const teamId = id();
    await t.dataSource.query(`INSERT INTO teams (id, organization_id, title, created_at) VALUES ($1, $2, 'Team', now())`, [teamId, orgId]);
    for (const userId of userIds) {
      await t.dataSource.query(`INSERT INTO team_members (team_id, user_id, role, added_at) VALUES ($1, $2, 'member', now())`, [teamId, userId]);
    }
    return teamId;
  }

  async function addSpace(orgId: string): Promise<string> {
    const spaceId = id();
    await t.dataSource.query(
      `INSERT INTO spaces (id, organization_id, title, revision_id, created_at, updated_at) VALUES ($1, $2, 'Space', 'rev', now(), now())`,
      [spaceId, orgId],
    );
    return spaceId;
  }

  async function grant(orgId: string, spaceId: string, principal: { userId?: string; teamId?: string }): Promise<void> {
    await t.dataSource.query(
      `INSERT INTO content_grants (id, organization_id, space_id, user_id, team_id, role, created_at) VALUES ($1, $2, $3, $4, $5, 'edit', now())`,
      [id(), orgId, spaceId, principal.userId ?? null, principal.teamId ?? null],
    );
  }

  /** Every page of the list, following next.page; fails if an item repeats. */
  async function walk(client: TestUser['client'], orgId: string, query: Record<string, unknown>): Promise<{ ids: string[]; pages: number }> {
    const ids: string[] = [];
    let page: string | undefined;
    let pages = 0;
    do {
      const res = await client.get(`/v1/orgs/${orgId}/members`, { ...query, ...(page ? { page } : {}) });
      expect(res.status).toBe(200);
      expect(res.body.items.length).toBeLessThanOrEqual(Number(query.limit));
      ids.push(...res.body.items.map((m: { id: string }) => m.id));
      page = res.body.next?.page;
      pages++;
      if (pages > 50) throw new Error('pagination does not end');
    } while (page);
    expect(new Set(ids).size).toBe(ids.length);
    return { ids, pages };
  }


  describe('GET /v1/orgs/{organizationId}/members', () => {
    let owner: TestUser;
    let ann: TestUser;
    let ben: TestUser;
    let cat: TestUser;
    let dan: TestUser;
    let guest: TestUser;
    let orgId: string;
    beforeAll(async () => {
      owner = await t.user('Olga Owner');
      ann = await t.user('Ann Editor', { email: `ann.${id()}@alpha.example.com` });
      ben = await t.user('Ben 100%_Reader', { email: `ben.${id()}@beta.example.com` });
      cat = await t.user('Cat Creator');
      dan = await t.user('Dan Reader');
      guest = await t.user('Gus Guest');
      orgId = await orgWith(owner, [
        [ann, 'edit'],
        [ben, 'read'],
        [cat, 'create'],
        [dan, 'read'],
        [guest, null],
      ]);
    });

    it('lists members newest first, in the member shape', async () => {
      const res = await ann.client.get(`/v1/orgs/${orgId}/members`);
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(6);
      expect(res.body.items.map((m: { id: string }) => m.id)).toEqual([guest.id, dan.id, cat.id, ben.id, ann.id, owner.id]);
      const annItem = res.body.items.find((m: { id: string }) => m.id === ann.id);
      expect(annItem).toEqual({
        object: 'member',
        id: ann.id,
        role: 'edit',
        user: { object: 'user', id: ann.id, displayName: 'Ann Editor', email: ann.email, urls: { location: `http://docs.test/v1/users/${ann.id}` } },
        disabled: false,
        joinedAt: expect.any(String),
        sso: false,
        spaces: 0,
        teams: 0,
        sites: 0,
      });
      expect(res.body.items.find((m: { id: string }) => m.id === guest.id).role).toBeNull();
    });

    it('lists oldest first with order=asc', async () => {
      const res = await ann.client.get(`/v1/orgs/${orgId}/members`, { order: 'asc' });
      expect(res.body.items.map((m: { id: string }) => m.id)).toEqual([owner.id, ann.id, ben.id, cat.id, dan.id, guest.id]);
    });

    it('filters by role, and by guest', async () => {
      const readers = await ann.client.get(`/v1/orgs/${orgId}/members`, { role: 'read' });
      expect(readers.body.count).toBe(2);
      expect(readers.body.items.map((m: { id: string }) => m.id)).toEqual([dan.id, ben.id]);
      const guests = await ann.client.get(`/v1/orgs/${orgId}/members`, { role: 'guest' });
      expect(guests.body.items.map((m: { id: string }) => m.id)).toEqual([guest.id]);
      const admins = await ann.client.get(`/v1/orgs/${orgId}/members`, { role: 'admin' });
      expect(admins.body.items.map((m: { id: string }) => m.id)).toEqual([owner.id]);
      const reviewers = await ann.client.get(`/v1/orgs/${orgId}/members`, { role: 'review' });
      expect(reviewers.body).toEqual({ items: [], count: 0 });
    });

    it('searches display names and e-mails case-insensitively, with % and _ taken literally', async () => {
      const byName = await ann.client.get(`/v1/orgs/${orgId}/members`, { search: 'reader' });
      expect(byName.body.items.map((m: { id: string }) => m.id)).toEqual([dan.id, ben.id]);
      const byEmail = await ann.client.get(`/v1/orgs/${orgId}/members`, { search: '@ALPHA.example' });
      expect(byEmail.body.items.map((m: { id: string }) => m.id)).toEqual([ann.id]);
      const percent = await ann.client.get(`/v1/orgs/${orgId}/members`, { search: '100%_' });
      expect(percent.body.items.map((m: { id: string }) => m.id)).toEqual([ben.id]);
      const wildcard = await ann.client.get(`/v1/orgs/${orgId}/members`, { search: '%' });
      expect(wildcard.body.items.map((m: { id: string }) => m.id)).toEqual([ben.id]);
      const underscore = await ann.client.get(`/v1/orgs/${orgId}/members`, { search: 'n_E' });
      expect(underscore.body.count).toBe(0);
      const combined = await ann.client.get(`/v1/orgs/${orgId}/members`, { search: 'e', role: 'create' });
      expect(combined.body.items.map((m: { id: string }) => m.id)).toEqual([cat.id]);
    });

    it('sorts by display name, both ways, with a cursor that walks every member once', async () => {
      const byName = ['Ann Editor', 'Ben 100%_Reader', 'Cat Creator', 'Dan Reader', 'Gus Guest', 'Olga Owner'];
      const ids = new Map([
        ['Ann Editor', ann.id],
        ['Ben 100%_Reader', ben.id],
        ['Cat Creator', cat.id],
        ['Dan Reader', dan.id],
        ['Gus Guest', guest.id],
        ['Olga Owner', owner.id],
      ]);
      const asc = await ann.client.get(`/v1/orgs/${orgId}/members`, { sort: 'name', order: 'asc' });
      expect(asc.status).toBe(200);
      expect(asc.body.items.map((m: { user: { displayName: string } }) => m.user.displayName)).toEqual(byName);
      const desc = await ann.client.get(`/v1/orgs/${orgId}/members`, { sort: 'name' });
      expect(desc.body.items.map((m: { id: string }) => m.id)).toEqual(byName.map((n) => ids.get(n)).reverse());
      const walked = await walk(ann.client, orgId, { sort: 'name', order: 'asc', limit: 4 });
      expect(walked.ids).toEqual(byName.map((n) => ids.get(n)));
      expect(walked.pages).toBe(2);
      const filtered = await ann.client.get(`/v1/orgs/${orgId}/members`, { sort: 'name', order: 'asc', search: 'reader' });
      expect(filtered.body.items.map((m: { id: string }) => m.id)).toEqual([ben.id, dan.id]);
      const forged = Buffer.from(JSON.stringify([42, 'x'])).toString('base64url');
      expect((await ann.client.get(`/v1/orgs/${orgId}/members`, { sort: 'name', page: forged })).status).toBe(400);
    });

    it('sorts by lastSeenAt listing only members seen at least once', async () => {
      await setLastSeen(orgId, ben.id, '2026-01-20T10:00:00.000Z');
      await setLastSeen(orgId, owner.id, '2026-01-22T10:00:00.000Z');
      await setLastSeen(orgId, cat.id, '2026-01-21T10:00:00.000Z');
      try {
        const desc = await ann.client.get(`/v1/orgs/${orgId}/members`, { sort: 'lastSeenAt' });
        expect(desc.status).toBe(200);
        expect(desc.body.count).toBe(3);
        expect(desc.body.items.map((m: { id: string }) => m.id)).toEqual([owner.id, cat.id, ben.id]);
        expect(desc.body.items[0].lastSeenAt).toBe('2026-01-22T10:00:00.000Z');
        const asc = await ann.client.get(`/v1/orgs/${orgId}/members`, { sort: 'lastSeenAt', order: 'asc' });
        expect(asc.body.items.map((m: { id: string }) => m.id)).toEqual([ben.id, cat.id, owner.id]);
        const walked = await walk(ann.client, orgId, { sort: 'lastSeenAt', limit: 2 });
        expect(walked.ids).toEqual([owner.id, cat.id, ben.id]);
        expect(walked.pages).toBe(2);
        const readers = await ann.client.get(`/v1/orgs/${orgId}/members`, { sort: 'lastSeenAt', role: 'read' });
        expect(readers.body.items.map((m: { id: string }) => m.id)).toEqual([ben.id]);
      } finally {
        await t.dataSource.query('UPDATE organization_members SET last_seen_at = NULL WHERE organization_id = $1', [orgId]);
      }
    });

    it('walks every page once, in order, in both directions', async () => {
      for (const [order, expected] of [
        ['desc', [guest.id, dan.id, cat.id, ben.id, ann.id, owner.id]],
        ['asc', [owner.id, ann.id, ben.id, cat.id, dan.id, guest.id]],
      ] as const) {
        for (const limit of [1, 4, 5]) {
          const { ids, pages } = await walk(ann.client, orgId, { order, limit });
          expect(ids).toEqual(expected);
          expect(pages).toBe(Math.ceil(6 / limit));
        }
      }
      const first = await ann.client.get(`/v1/orgs/${orgId}/members`, { limit: 2, role: 'read' });
      expect(first.body.count).toBe(2);
      expect(first.body.next).toBeUndefined();
    });

    it('breaks joinedAt ties by user id, still listing each member once', async () => {
      const o = await t.user();
      const same = [await t.user(), await t.user(), await t.user(), await t.user()];
      const tied = await t.organization(o, same.map((u) => [u, 'read'] as [TestUser, string]));
      const { ids } = await walk(o.client, tied, { limit: 2, order: 'asc' });
      expect(ids).toHaveLength(5);
      expect(ids.slice().sort()).toEqual([o.id, ...same.map((u) => u.id)].sort());
      expect(ids).toEqual([o.id, ...same.map((u) => u.id)].sort());
    });

    it('counts the spaces shared with each member and the teams they are in', async () => {
      const team = await addTeam(orgId, [ann.id, ben.id]);
      await addTeam(orgId, [ann.id]);
      const s1 = await addSpace(orgId);
      const s2 = await addSpace(orgId);
      await grant(orgId, s1, { userId: ann.id });
      await grant(orgId, s1, { teamId: team });
      await grant(orgId, s2, { teamId: team });
      const res = await cat.client.get(`/v1/orgs/${orgId}/members`);
      const byId = new Map(res.body.items.map((m: { id: string; spaces: number; teams: number }) => [m.id, [m.spaces, m.teams]]));
      expect(byId.get(ann.id)).toEqual([2, 2]);
      expect(byId.get(ben.id)).toEqual([2, 1]);
      expect(byId.get(cat.id)).toEqual([0, 0]);
    });

    it('is refused to guests (403) and hidden from non-members (404)', async () => {
      const forbidden = await guest.client.get(`/v1/orgs/${orgId}/members`);
      expect(forbidden.status).toBe(403);
      const stranger = await t.user();
      await t.organization(stranger);
      const hidden = await stranger.client.get(`/v1/orgs/${orgId}/members`);
      expect(hidden.status).toBe(404);
      expect((await owner.client.get('/v1/orgs/no-such-org/members')).status).toBe(404);
    });

    it.each([
      ['limit=1001', { limit: 1001 }],
      ['limit=0', { limit: 0 }],
      ['a non-numeric limit', { limit: 'ten' }],
      ['a bad order', { order: 'sideways' }],
      ['a bad role', { role: 'owner' }],
      ['a bad sort', { sort: 'email' }],
      ['an unknown parameter', { title: 'x' }],
      ['a too long search', { search: 'x'.repeat(256) }],
      ['a malformed cursor', { page: 'garbage' }],
      ['a cursor with a non-date', { page: Buffer.from(JSON.stringify(['yesterday', 'u'])).toString('base64url') }],
      ['a cursor with an impossible date', { page: Buffer.from(JSON.stringify(['2026-02-30T00:00:00.000Z', 'u'])).toString('base64url') }],
      ['a cursor of the wrong arity', { page: Buffer.from(JSON.stringify(['2026-01-01T00:00:00.000Z'])).toString('base64url') }],
    ])('refuses %s with a 400', async (_name, query) => {
      const res = await ann.client.get(`/v1/orgs/${orgId}/members`, query);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe(400);
    });
  });

  describe('GET /v1/orgs/{organizationId}/members/{userId}', () => {
    it('shows a member to members; 404 for non-members of the organization and for outsiders', async () => {
      const owner = await t.user('Owner');
      const reader = await t.user('Reader');
      const guest = await t.user('Guest');
      const outsider = await t.user('Outsider');
      const orgId = await orgWith(owner, [[reader, 'read'], [guest, null]]);
      const otherOrg = await t.organization(outsider);
      await setLastSeen(orgId, reader.id, '2026-01-16T08:00:00.000Z');

      const res = await reader.client.get(`/v1/orgs/${orgId}/members/${owner.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ object: 'member', id: owner.id, role: 'admin', user: { id: owner.id, displayName: 'Owner' } });
      expect(res.body.lastSeenAt).toBeUndefined();
      const seen = await owner.client.get(`/v1/orgs/${orgId}/members/${reader.id}`);
      expect(seen.body.lastSeenAt).toBe('2026-01-16T08:00:00.000Z');

      expect((await owner.client.get(`/v1/orgs/${orgId}/members/${outsider.id}`)).status).toBe(404);
      expect((await owner.client.get(`/v1/orgs/${orgId}/members/no-such-user`)).status).toBe(404);
      expect((await outsider.client.get(`/v1/orgs/${orgId}/members/${owner.id}`)).status).toBe(404);
      expect((await outsider.client.get(`/v1/orgs/${orgId}/members/${outsider.id}`)).status).toBe(404);
      expect((await owner.client.get(`/v1/orgs/${otherOrg}/members/${outsider.id}`)).status).toBe(404);

      expect((await guest.client.get(`/v1/orgs/${orgId}/members/${guest.id}`)).status).toBe(200);
      expect((await guest.client.get(`/v1/orgs/${orgId}/members/${owner.id}`)).status).toBe(403);
    });
  });

  describe('PATCH /v1/orgs/{organizationId}/members/{userId}', () => {
    let owner: TestUser;
    let reader: TestUser;
    let editor: TestUser;
    let orgId: string;
    beforeEach(async () => {
      owner = await t.user('Owner');
      reader = await t.user('Reader');
      editor = await t.user('Editor');
      orgId = await orgWith(owner, [[reader, 'read'], [editor, 'edit']]);
    });

    it('lets an admin change a role, make a guest and promote an admin', async () => {
      const res = await owner.client.patch(`/v1/orgs/${orgId}/members/${reader.id}`, { role: 'review' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ object: 'member', id: reader.id, role: 'review', user: { id: reader.id } });
      expect(await roleOf(orgId, reader.id)).toBe('review');
      const guest = await owner.client.patch(`/v1/orgs/${orgId}/members/${reader.id}`, { role: null });
      expect(guest.status).toBe(200);
      expect(guest.body.role).toBeNull();
      expect(await roleOf(orgId, reader.id)).toBeNull();
      expect((await reader.client.get(`/v1/orgs/${orgId}/members`)).status).toBe(403);
      await owner.client.must.patch(`/v1/orgs/${orgId}/members/${editor.id}`, { role: 'admin' });
      expect((await editor.client.patch(`/v1/orgs/${orgId}`, { title: 'Now admin' })).status).toBe(200);
    });

    it('changes nothing when no role is given', async () => {
      const res = await owner.client.patch(`/v1/orgs/${orgId}/members/${editor.id}`, {});
      expect(res.status).toBe(200);
      expect(res.body.role).toBe('edit');
    });

    it('is for admins only (403), hidden from non-members (404), and 404 for users who are not members', async () => {
      expect((await editor.client.patch(`/v1/orgs/${orgId}/members/${reader.id}`, { role: 'admin' })).status).toBe(403);
      expect((await reader.client.patch(`/v1/orgs/${orgId}/members/${reader.id}`, { role: 'admin' })).status).toBe(403);
      const outsider = await t.user();
      await t.organization(outsider);
      expect((await outsider.client.patch(`/v1/orgs/${orgId}/members/${reader.id}`, { role: 'admin' })).status).toBe(404);
      expect((await owner.client.patch(`/v1/orgs/${orgId}/members/${outsider.id}`, { role: 'read' })).status).toBe(404);
      expect(await roleOf(orgId, reader.id)).toBe('read');
      expect(await roleOf(orgId, outsider.id)).toBeUndefined();
    });

    it.each([
      ['a bad role', { role: 'owner' }],
      ['a numeric role', { role: 3 }],
      ['an unknown field', { role: 'edit', disabled: true }],
    ])('refuses %s with a 400 and changes nothing', async (_name, body) => {
      const res = await owner.client.patch(`/v1/orgs/${orgId}/members/${reader.id}`, body);
      expect(res.status).toBe(400);
      expect(await roleOf(orgId, reader.id)).toBe('read');
    });

    it('refuses to demote the last admin (409), allows it once there is another', async () => {
      const res = await owner.client.patch(`/v1/orgs/${orgId}/members/${owner.id}`, { role: 'read' });
      expect(res.status).toBe(409);
      expect(res.body.error.message).toMatch(/last admin/);
      expect(await roleOf(orgId, owner.id)).toBe('admin');
      expect((await owner.client.patch(`/v1/orgs/${orgId}/members/${owner.id}`, { role: 'admin' })).status).toBe(200);
      await owner.client.must.patch(`/v1/orgs/${orgId}/members/${editor.id}`, { role: 'admin' });
      expect((await owner.client.patch(`/v1/orgs/${orgId}/members/${owner.id}`, { role: 'read' })).status).toBe(200);
      expect(await adminCount(orgId)).toBe(1);
      expect((await editor.client.patch(`/v1/orgs/${orgId}/members/${editor.id}`, { role: null })).status).toBe(409);
    });

    it('never leaves zero admins when the two remaining admins are demoted at the same time', async () => {
      await owner.client.must.patch(`/v1/orgs/${orgId}/members/${editor.id}`, { role: 'admin' });
      // Hold the admin rows so both demotions are past authorization and waiting together.
      const results = await whileLocked(
        t,
        `SELECT 1 FROM organization_members WHERE organization_id = $1 AND role = 'admin' FOR UPDATE`,
        [orgId],
        2,
        () => [
          owner.client.patch(`/v1/orgs/${orgId}/members/${editor.id}`, { role: 'read' }),
          editor.client.patch(`/v1/orgs/${orgId}/members/${owner.id}`, { role: 'read' }),
        ],
      );
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
      expect(await adminCount(orgId)).toBe(1);
    });

    it('never leaves zero admins when a demotion and a removal of the last two admins race', async () => {
      await owner.client.must.patch(`/v1/orgs/${orgId}/members/${editor.id}`, { role: 'admin' });
      const results = await whileLocked(
        t,
        `SELECT 1 FROM organization_members WHERE organization_id = $1 AND role = 'admin' FOR UPDATE`,
        [orgId],
        2,
        () => [
          owner.client.delete(`/v1/orgs/${orgId}/members/${editor.id}`),
          editor.client.patch(`/v1/orgs/${orgId}/members/${owner.id}`, { role: 'read' }),
        ],
      );
      // Whichever runs first succeeds (205 removed, or 200 demoted); the other is refused.
      const statuses = results.map((r) => r.status);
      expect(statuses.filter((s) => s === 409)).toHaveLength(1);
      expect(statuses.filter((s) => s === 200 || s === 205)).toHaveLength(1);
      expect(await adminCount(orgId)).toBe(1);
    });
  });

  describe('DELETE /v1/orgs/{organizationId}/members/{userId}', () => {
    let owner: TestUser;
    let reader: TestUser;
    let editor: TestUser;
    let orgId: string;
    beforeEach(async () => {
      owner = await t.user('Owner');
      reader = await t.user('Reader');
      editor = await t.user('Editor');
      orgId = await orgWith(owner, [[reader, 'read'], [editor, 'edit']]);
    });

    it('removes a member with their team memberships, grants and merge-rule mentions in this organization only', async () => {
      const other = await t.user();
      const otherOrg = await orgWith(other, [[editor, 'edit']]);
      const team = await addTeam(orgId, [editor.id, reader.id]);
      const otherTeam = await addTeam(otherOrg, [editor.id]);
      const space = await addSpace(orgId);
      const otherSpace = await addSpace(otherOrg);
      await grant(orgId, space, { userId: editor.id });
      await grant(orgId, space, { userId: reader.id });
      await grant(orgId, space, { teamId: team });
      await grant(otherOrg, otherSpace, { userId: editor.id });
      const rules = {
        type: 'rules',
        rules: [
          { rule: 'require_one_of_specific_reviewers', users: [editor.id, reader.id] },
          { rule: 'allow_bypass', users: [editor.id] },
        ],
      };
      expect((await owner.client.patch(`/v1/orgs/${orgId}`, { mergeRules: rules })).status).toBe(200);

      const res = await owner.client.delete(`/v1/orgs/${orgId}/members/${editor.id}`);
      expect(res.status).toBe(205);
      expect(await roleOf(orgId, editor.id)).toBeUndefined();
      expect(await t.dataSource.query('SELECT team_id FROM team_members WHERE user_id = $1', [editor.id])).toEqual([{ team_id: otherTeam }]);
      expect(await t.dataSource.query('SELECT user_id FROM team_members WHERE team_id = $1', [team])).toEqual([{ user_id: reader.id }]);
      expect(await t.dataSource.query('SELECT organization_id FROM content_grants WHERE user_id = $1', [editor.id])).toEqual([
        { organization_id: otherOrg },
      ]);
      const grants = await t.dataSource.query('SELECT user_id, team_id FROM content_grants WHERE organization_id = $1 ORDER BY user_id', [orgId]);
      expect(grants).toEqual([
        { user_id: reader.id, team_id: null },
        { user_id: null, team_id: team },
      ]);
      const org = await owner.client.get(`/v1/orgs/${orgId}`);
      expect(org.body.mergeRules).toEqual({
        type: 'rules',
        rules: [
          { rule: 'require_one_of_specific_reviewers', users: [reader.id] },
          { rule: 'allow_bypass', users: [] },
        ],
      });
      expect(await roleOf(otherOrg, editor.id)).toBe('edit');
      expect((await editor.client.get(`/v1/orgs/${orgId}`)).status).toBe(404);
      expect((await owner.client.get(`/v1/orgs/${orgId}/members/${editor.id}`)).status).toBe(404);
    });

    it('answers 204 when the user is not a member', async () => {
      const outsider = await t.user();
      expect((await owner.client.delete(`/v1/orgs/${orgId}/members/${outsider.id}`)).status).toBe(204);
      expect((await owner.client.delete(`/v1/orgs/${orgId}/members/no-such-user`)).status).toBe(204);
      expect((await owner.client.delete(`/v1/orgs/${orgId}/members/${reader.id}`)).status).toBe(205);
      expect((await owner.client.delete(`/v1/orgs/${orgId}/members/${reader.id}`)).status).toBe(204);
    });

    it('lets a member leave, but not remove others (403); hides the organization from outsiders (404)', async () => {
      expect((await reader.client.delete(`/v1/orgs/${orgId}/members/${editor.id}`)).status).toBe(403);
      expect((await editor.client.delete(`/v1/orgs/${orgId}/members/${owner.id}`)).status).toBe(403);
      expect(await roleOf(orgId, editor.id)).toBe('edit');
      const outsider = await t.user();
      await t.organization(outsider);
      expect((await outsider.client.delete(`/v1/orgs/${orgId}/members/${reader.id}`)).status).toBe(404);
      expect((await outsider.client.delete(`/v1/orgs/${orgId}/members/${outsider.id}`)).status).toBe(404);
      expect(await roleOf(orgId, reader.id)).toBe('read');
      expect((await reader.client.delete(`/v1/orgs/${orgId}/members/${reader.id}`)).status).toBe(205);
      expect(await roleOf(orgId, reader.id)).toBeUndefined();
    });

    it('refuses to remove the last admin (409), even when they leave themselves', async () => {
      const res = await owner.client.delete(`/v1/orgs/${orgId}/members/${owner.id}`);
      expect(res.status).toBe(409);
      expect(await roleOf(orgId, owner.id)).toBe('admin');
      await owner.client.must.patch(`/v1/orgs/${orgId}/members/${editor.id}`, { role: 'admin' });
      expect((await owner.client.delete(`/v1/orgs/${orgId}/members/${owner.id}`)).status).toBe(205);
      expect((await editor.client.delete(`/v1/orgs/${orgId}/members/${editor.id}`)).status).toBe(409);
      expect(await adminCount(orgId)).toBe(1);
    });

    it('never leaves zero admins when the two remaining admins are removed at the same time', async () => {
      await owner.client.must.patch(`/v1/orgs/${orgId}/members/${editor.id}`, { role: 'admin' });
      const results = await whileLocked(
        t,
        `SELECT 1 FROM organization_members WHERE organization_id = $1 AND role = 'admin' FOR UPDATE`,
        [orgId],
        2,
        () => [owner.client.delete(`/v1/orgs/${orgId}/members/${owner.id}`), editor.client.delete(`/v1/orgs/${orgId}/members/${editor.id}`)],
      );
      expect(results.map((r) => r.status).sort()).toEqual([205, 409]);
      expect(await adminCount(orgId)).toBe(1);
    });
  });
});
