import { AddressInfo } from 'node:net';
import { TestApp, TestUser, checkContract } from '@app/testing';

// The official clients, unchanged: the pinned contract version and the current one.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { GitBookAPI, GitBookAPIError } = require('@gitbook/api');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { GitBookAPI: CurrentGitBookAPI } = require('gitbook-api-current');

/** One request the official client made, as it reached the network. */
interface Exchange {
  method: string;
  url: string;
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

type ListData<T> = { items: T[]; count: number; next?: { page: string } };
type Id = { id: string };

describe('the official @gitbook/api client', () => {
  let t: TestApp;
  let endpoint: string;
  let owner: TestUser;
  let reader: TestUser;

  /**
   * Every request the clients make goes through here: the clients' own `serviceBinding`
   * option (a fetch-compatible binding, as on Cloudflare) forwarding to the real `fetch`.
   * We record it, check the URL is our server, and validate the response against the contract
   * exactly like the supertest client of `@app/testing` does.
   */
  const exchanges: Exchange[] = [];
  const transport = {
    fetch: async (input: string, init: RequestInit = {}) => {
      const method = init.method ?? 'GET';
      const response = await fetch(input, init);
      const text = await response.clone().text();
      const body = text ? JSON.parse(text) : undefined;
      exchanges.push({ method, url: input, status: response.status, headers: { ...(init.headers as Record<string, string>) }, body });
      const url = new URL(input);
      checkContract(method.toLowerCase(), url.pathname + url.search, response.status, body);
      return response;
    },
  };

  beforeAll(async () => {
    t = await TestApp.start();
    await t.app.listen(0, '127.0.0.1');
    endpoint = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    owner = await t.user('Owner');
    reader = await t.user('Reader');
  });
  afterAll(async () => {
    await t.close();
    // Every request of every client went to our server and was checked against the contract.
    expect(exchanges.length).toBeGreaterThan(150);
    for (const exchange of exchanges) expect(exchange.url.startsWith(`${endpoint}/v1/`)).toBe(true);
  });

  const client = (user: TestUser) => new GitBookAPI({ endpoint, authToken: user.token, serviceBinding: transport });
  const currentClient = (user: TestUser) => new CurrentGitBookAPI({ endpoint, authToken: user.token, serviceBinding: transport });

  /** The GitBookAPIError a call fails with (the pinned client's class), with its status. */
  async function failure(call: Promise<unknown>): Promise<{ code: number; errorMessage: string; response: Response }> {
    let error: unknown;
    try {
      await call;
    } catch (e) {
      error = e;
    }
    if (!error) throw new Error('expected the client to throw');
    expect(error).toBeInstanceOf(GitBookAPIError);
    return error as { code: number; errorMessage: string; response: Response };
  }

  /** Walks a list through `next.page`, passed back as the client's `page` query parameter. */
  async function walk<T>(load: (page?: string) => Promise<{ status: number; data: ListData<T> }>): Promise<{ items: T[]; pages: number }> {
    const items: T[] = [];
    let page: string | undefined;
    let pages = 0;
    let count: number | undefined;
    do {
      const res = await load(page);
      expect(res.status).toBe(200);
      count ??= res.data.count;
      expect(res.data.count).toBe(count);
      items.push(...res.data.items);
      page = res.data.next?.page;
      if (++pages > 100) throw new Error('pagination does not end');
    } while (page);
    expect(items).toHaveLength(count!);
    return { items, pages };
  }

  const ids = (items: Id[]) => items.map((item) => item.id);
  /** Creation times a second apart, so "oldest first" lists have one right order. */
  const tick = () => t.clock.advance(1000);

  it('creates an organization with the current client and reads it back with the pinned one', async () => {
    const current = new CurrentGitBookAPI({ endpoint, authToken: owner.token });
    const created = await current.orgs.createOrganization({ title: 'Client Org' });
    expect(created.data).toMatchObject({ object: 'organization', title: 'Client Org' });

    const api = client(owner);
    const me = await api.user.getAuthenticatedUser();
    expect(me.data.id).toBe(owner.id);
    const org = await api.orgs.getOrganizationById(created.data.id);
    expect(org.data.permissions.admin).toBe(true);
    const list = await api.orgs.listOrganizationsForAuthenticatedUser({ limit: 10 });
    expect(list.data.items.map((o: { id: string }) => o.id)).toEqual([created.data.id]);

    const invited = await api.orgs.inviteUsersToOrganization(created.data.id, { emails: [reader.email], role: 'read' });
    expect(invited.data.users).toEqual([reader.id]);
  });

  it('surfaces our errors as GitBookAPIError with the status', async () => {
    const api = client(reader);
    await expect(api.orgs.getOrganizationById('missing')).rejects.toMatchObject({ code: 404 });
  });

  describe('on every foundation endpoint', () => {
    // Ada administers two organizations; Bob, Cyd and Dan are members of the first; Eve is
    // a stranger to both.
    let ada: TestUser, bob: TestUser, cyd: TestUser, dan: TestUser, eve: TestUser;
    let orgId: string;
    let otherOrgId: string;
    let evesOrgId: string;

    beforeAll(async () => {
      [ada, bob, cyd, dan, eve] = [await t.user('Ada Admin'), await t.user('Bob Editor'), await t.user('Cyd Editor'), await t.user('Dan Reader'), await t.user('Eve Stranger')];
      const current = currentClient(ada);
      const first = await current.orgs.createOrganization({ title: 'Foundation Org' });
      expect(first.status).toBe(201);
      orgId = first.data.id;
      const second = await current.orgs.createOrganization({ title: 'Second Org' });
      otherOrgId = second.data.id;
      await current.orgs.createOrganization({ title: 'Third Org' });
      evesOrgId = (await currentClient(eve).orgs.createOrganization({ title: "Eve's Org" })).data.id;
    });

    describe('user', () => {
      it('returns the authenticated user', async () => {
        const res = await client(ada).user.getAuthenticatedUser();
        expect(res.status).toBe(200);
        expect(res.data).toMatchObject({ object: 'user', id: ada.id, displayName: 'Ada Admin', email: ada.email });
      });

      it('is a 401 GitBookAPIError without a valid token', async () => {
        const err = await failure(new GitBookAPI({ endpoint, authToken: 'gbp_nope', serviceBinding: transport }).user.getAuthenticatedUser());
        expect(err.code).toBe(401);
      });
    });

    describe('orgs', () => {
      beforeAll(async () => {
        const api = client(ada);
        // Both invitation shapes of the pinned client: plain e-mails with one role, and per-e-mail roles.
        t.clock.advance(1000);
        const first = await api.orgs.inviteUsersToOrganization(orgId, { emails: [bob.email], role: 'edit' });
        expect(first.status).toBe(200);
        expect(first.data).toMatchObject({ users: [bob.id], invited: 1 });
        t.clock.advance(1000);
        const second = await api.orgs.inviteUsersToOrganization(orgId, { emails: [{ email: cyd.email, role: 'edit' }] });
        expect(second.data.users).toEqual([cyd.id]);
        t.clock.advance(1000);
        const third = await api.orgs.inviteUsersToOrganization(orgId, { emails: [dan.email], role: 'read' });
        expect(third.data.users).toEqual([dan.id]);
      });

      it('lists the organizations of the caller, page by page', async () => {
        const api = client(ada);
        const { items, pages } = await walk<Id & { title: string }>((page) => api.orgs.listOrganizationsForAuthenticatedUser({ limit: 1, page }));
        expect(pages).toBe(3);
        expect(items.map((o) => o.title).sort()).toEqual(['Foundation Org', 'Second Org', 'Third Org']);
        expect(new Set(ids(items)).size).toBe(3);

        const bobs = await client(bob).orgs.listOrganizationsForAuthenticatedUser();
        expect(ids(bobs.data.items)).toEqual([orgId]);
      });

      it('gets and updates an organization', async () => {
        const api = client(ada);
        const updated = await api.orgs.updateOrganizationById(orgId, { title: 'Foundation Org Renamed' });
        expect(updated.status).toBe(200);
        expect(updated.data).toMatchObject({ id: orgId, title: 'Foundation Org Renamed' });
        const got = await client(bob).orgs.getOrganizationById(orgId);
        expect(got.data).toMatchObject({ id: orgId, title: 'Foundation Org Renamed', object: 'organization' });
        expect(got.data.permissions.admin).toBe(false);
      });

      it('finds the organization behind its hostname (getSubdomain), for members only', async () => {
        const hostname = `foundation-${process.pid}-${Date.now() % 100000}`;
        expect((await client(ada).orgs.updateOrganizationById(orgId, { hostname })).status).toBe(200);
        for (const api of [client(bob), currentClient(bob)]) {
          const got = await api.subdomains.getSubdomain(hostname);
          expect(got.data).toEqual({ object: 'subdomain', subdomain: hostname, target: { type: 'organization', organization: orgId }, isActive: true });
        }
        expect((await failure(client(eve).subdomains.getSubdomain(hostname))).code).toBe(404);
      });

      it('surfaces 404 to strangers, 403 to non-admins and 400 on bad input, changing nothing', async () => {
        expect((await failure(client(eve).orgs.getOrganizationById(orgId))).code).toBe(404);
        expect((await failure(client(eve).orgs.updateOrganizationById(orgId, { title: 'Hijacked' }))).code).toBe(404);
        expect((await failure(client(bob).orgs.updateOrganizationById(orgId, { title: 'Nope' }))).code).toBe(403);
        const bad = await failure(client(ada).orgs.updateOrganizationById(orgId, { title: 'x'.repeat(500) }));
        expect(bad.code).toBe(400);
        expect(bad.errorMessage).toMatch(/title/);
        expect((await failure(client(ada).orgs.updateOrganizationById(orgId, { defaultRole: 'owner' as never }))).code).toBe(400);
        expect((await failure(client(ada).orgs.inviteUsersToOrganization(orgId, { emails: ['not-an-email'], role: 'read' }))).code).toBe(400);
        expect((await client(ada).orgs.getOrganizationById(orgId)).data.title).toBe('Foundation Org Renamed');
        expect((await failure(client(ada).orgs.listOrganizationsForAuthenticatedUser({ limit: 1001 }))).code).toBe(400);
      });

      it('lists members with filters, sort and order, page by page', async () => {
        const api = client(ada);
        // joinedAt order: Ada (creator), then Bob, Cyd, Dan a second apart.
        const asc = await walk<{ user: Id; role: string }>((page) => api.orgs.listMembersInOrganizationById(orgId, { limit: 1, page, sort: 'joinedAt', order: 'asc' }));
        expect(asc.pages).toBe(4);
        expect(asc.items.map((m) => m.user.id)).toEqual([ada.id, bob.id, cyd.id, dan.id]);
        const desc = await api.orgs.listMembersInOrganizationById(orgId, { order: 'desc' });
        expect(desc.data.items.map((m: { user: Id }) => m.user.id)).toEqual([dan.id, cyd.id, bob.id, ada.id]);

        const editors = await api.orgs.listMembersInOrganizationById(orgId, { role: 'edit', order: 'asc' });
        expect(editors.data.count).toBe(2);
        expect(editors.data.items.map((m: { user: Id; role: string }) => [m.user.id, m.role])).toEqual([
          [bob.id, 'edit'],
          [cyd.id, 'edit'],
        ]);
        const searched = await api.orgs.listMembersInOrganizationById(orgId, { search: 'bob edit' });
        expect(searched.data.items.map((m: { user: Id }) => m.user.id)).toEqual([bob.id]);
        const byEmail = await api.orgs.listMembersInOrganizationById(orgId, { search: dan.email.toUpperCase() });
        expect(byEmail.data.items.map((m: { user: Id }) => m.user.id)).toEqual([dan.id]);

        // lastSeenAt lists the members seen at least once, most recent first by default.
        await t.dataSource.query(
          `UPDATE organization_members SET last_seen_at = $3 WHERE organization_id = $1 AND user_id = $2`,
          [orgId, cyd.id, new Date('2026-01-10T00:00:00Z')],
        );
        await t.dataSource.query(
          `UPDATE organization_members SET last_seen_at = $3 WHERE organization_id = $1 AND user_id = $2`,
          [orgId, dan.id, new Date('2026-01-12T00:00:00Z')],
        );
        const seen = await api.orgs.listMembersInOrganizationById(orgId, { sort: 'lastSeenAt' });
        expect(seen.data.items.map((m: { user: Id; lastSeenAt: string }) => [m.user.id, m.lastSeenAt])).toEqual([
          [dan.id, '2026-01-12T00:00:00.000Z'],
          [cyd.id, '2026-01-10T00:00:00.000Z'],
        ]);
        const seenAsc = await walk<{ user: Id }>((page) => api.orgs.listMembersInOrganizationById(orgId, { sort: 'lastSeenAt', order: 'asc', limit: 1, page }));
        expect(seenAsc.items.map((m) => m.user.id)).toEqual([cyd.id, dan.id]);

        expect((await failure(api.orgs.listMembersInOrganizationById(orgId, { role: 'owner' as never }))).code).toBe(400);
        expect((await failure(api.orgs.listMembersInOrganizationById(orgId, { sort: 'title' as never }))).code).toBe(400);
        expect((await failure(api.orgs.listMembersInOrganizationById(orgId, { limit: 1001 }))).code).toBe(400);
        expect((await failure(api.orgs.listMembersInOrganizationById(orgId, { page: 'garbage' }))).code).toBe(400);
        expect((await failure(client(eve).orgs.listMembersInOrganizationById(orgId))).code).toBe(404);
      });

      it('gets, updates and removes a member', async () => {
        const api = client(ada);
        const got = await api.orgs.getMemberInOrganizationById(orgId, cyd.id);
        expect(got.status).toBe(200);
        expect(got.data).toMatchObject({ object: 'member', id: cyd.id, role: 'edit', user: { id: cyd.id, displayName: 'Cyd Editor' } });

        const updated = await api.orgs.updateMemberInOrganizationById(orgId, cyd.id, { role: 'review' });
        expect(updated.status).toBe(200);
        expect(updated.data).toMatchObject({ id: cyd.id, role: 'review' });
        expect((await api.orgs.getMemberInOrganizationById(orgId, cyd.id)).data.role).toBe('review');

        expect((await failure(client(bob).orgs.updateMemberInOrganizationById(orgId, cyd.id, { role: 'admin' }))).code).toBe(403);
        expect((await failure(api.orgs.updateMemberInOrganizationById(orgId, cyd.id, { role: 'boss' as never }))).code).toBe(400);
        expect((await failure(client(eve).orgs.getMemberInOrganizationById(orgId, cyd.id))).code).toBe(404);
        expect((await failure(api.orgs.getMemberInOrganizationById(orgId, eve.id))).code).toBe(404);
        expect((await failure(client(bob).orgs.removeMemberFromOrganizationById(orgId, cyd.id))).code).toBe(403);
        // The last admin cannot be demoted.
        expect((await failure(api.orgs.updateMemberInOrganizationById(orgId, ada.id, { role: 'read' }))).code).toBe(409);
        expect((await api.orgs.getMemberInOrganizationById(orgId, cyd.id)).data.role).toBe('review');

        const removed = await api.orgs.removeMemberFromOrganizationById(orgId, cyd.id);
        expect(removed.status).toBe(205);
        const again = await api.orgs.removeMemberFromOrganizationById(orgId, cyd.id);
        expect(again.status).toBe(204);
        expect((await failure(api.orgs.getMemberInOrganizationById(orgId, cyd.id))).code).toBe(404);
        expect((await failure(client(cyd).orgs.getOrganizationById(orgId))).code).toBe(404);

        // Cyd comes back for the rest of the suite.
        const back = await api.orgs.inviteUsersToOrganization(orgId, { emails: [cyd.email], role: 'edit' });
        expect(back.data.users).toEqual([cyd.id]);
      });
    });

    describe('teams', () => {
      let writers: string;
      let reviewers: string;

      it('creates teams, lists them with a title filter and page by page, gets and renames one', async () => {
        const api = client(ada);
        const created = await api.orgs.createOrganizationTeam(orgId, { title: 'Writers', members: [bob.id] });
        expect(created.status).toBe(201);
        expect(created.data).toMatchObject({ object: 'team', title: 'Writers', members: 1 });
        writers = created.data.id;
        tick();
        reviewers = (await api.orgs.createOrganizationTeam(orgId, { title: 'Reviewers' })).data.id;
        tick();
        await api.orgs.createOrganizationTeam(orgId, { title: 'Ops' });

        const all = await walk<Id & { title: string }>((page) => api.orgs.listTeamsInOrganizationById(orgId, { limit: 2, page }));
        expect(all.pages).toBe(2);
        expect(all.items.map((team) => team.title)).toEqual(['Writers', 'Reviewers', 'Ops']);
        const filtered = await api.orgs.listTeamsInOrganizationById(orgId, { title: 'WRIT' });
        expect(filtered.data.count).toBe(1);
        expect(ids(filtered.data.items)).toEqual([writers]);
        const owned = await api.orgs.listTeamsInOrganizationById(orgId, { owner: ada.id, title: 'ers' });
        expect(ids(owned.data.items)).toEqual([writers, reviewers]);

        const got = await client(bob).orgs.getTeamInOrganizationById(orgId, writers);
        expect(got.data).toMatchObject({ id: writers, title: 'Writers', members: 1 });
        const renamed = await api.orgs.updateTeamInOrganizationById(orgId, writers, { title: 'Tech Writers' });
        expect(renamed.status).toBe(200);
        expect(renamed.data).toMatchObject({ id: writers, title: 'Tech Writers' });
        expect((await api.orgs.getTeamInOrganizationById(orgId, writers)).data.title).toBe('Tech Writers');
      });

      it('surfaces team errors: 403 for non-admins, 404 for strangers and unknown teams, 400 on bad input', async () => {
        expect((await failure(client(bob).orgs.createOrganizationTeam(orgId, { title: 'Rogue' }))).code).toBe(403);
        expect((await failure(client(eve).orgs.createOrganizationTeam(orgId, { title: 'Rogue' }))).code).toBe(404);
        expect((await failure(client(eve).orgs.getTeamInOrganizationById(orgId, writers))).code).toBe(404);
        expect((await failure(client(ada).orgs.getTeamInOrganizationById(otherOrgId, writers))).code).toBe(404);
        expect((await failure(client(ada).orgs.createOrganizationTeam(orgId, { title: '' }))).code).toBe(400);
        expect((await failure(client(ada).orgs.createOrganizationTeam(orgId, { title: 'Strangers', members: [eve.id] }))).code).toBe(400);
        expect((await failure(client(ada).orgs.updateTeamInOrganizationById(orgId, writers, { title: 'x'.repeat(500) }))).code).toBe(400);
        expect((await failure(client(ada).orgs.listTeamsInOrganizationById(orgId, { limit: 1001 }))).code).toBe(400);
        const titles = (await client(ada).orgs.listTeamsInOrganizationById(orgId)).data.items.map((team: { title: string }) => team.title);
        expect(titles).toEqual(['Tech Writers', 'Reviewers', 'Ops']);
      });

      it('manages team members in batch and one by one, and lists teams of a member', async () => {
        const api = client(ada);
        const batch = await api.orgs.updateMembersInOrganizationTeam(orgId, writers, {
          add: [cyd.id],
          memberships: { [bob.id]: { role: 'owner' } },
        });
        expect(batch.status).toBe(204);
        tick();
        const single = await api.orgs.addMemberToOrganizationTeamById(orgId, writers, dan.id, { role: 'member' });
        expect(single.status).toBe(204);
        const noRole = await api.orgs.addMemberToOrganizationTeamById(orgId, reviewers, bob.id, {});
        expect(noRole.status).toBe(204);

        const members = await walk<{ organization: { user: Id }; team: { role: string } }>((page) =>
          api.orgs.listTeamMembersInOrganizationById(orgId, writers, { limit: 2, page }),
        );
        expect(members.pages).toBe(2);
        expect(members.items.map((m) => [m.organization.user.id, m.team.role])).toEqual([
          [bob.id, 'owner'],
          [cyd.id, 'member'],
          [dan.id, 'member'],
        ]);
        expect((await api.orgs.getTeamInOrganizationById(orgId, writers)).data.members).toBe(3);

        // Bob, a team owner, may manage his team.
        const byOwner = await client(bob).orgs.updateTeamInOrganizationById(orgId, writers, { title: 'Writers' });
        expect(byOwner.data.title).toBe('Writers');

        const bobsTeams = await walk<{ team: Id & { title: string }; member: { role: string } }>((page) =>
          api.orgs.listTeamsForOrganizationMember(orgId, bob.id, { limit: 1, page }),
        );
        expect(bobsTeams.items.map((item) => [item.team.id, item.member.role])).toEqual([
          [writers, 'owner'],
          [reviewers, 'member'],
        ]);
        const filtered = await api.orgs.listTeamsForOrganizationMember(orgId, bob.id, { title: 'review' });
        expect(filtered.data.items.map((item: { team: Id }) => item.team.id)).toEqual([reviewers]);

        expect((await failure(client(cyd).orgs.addMemberToOrganizationTeamById(orgId, writers, ada.id, {}))).code).toBe(403);
        expect((await failure(api.orgs.addMemberToOrganizationTeamById(orgId, writers, eve.id, {}))).code).toBe(404);
        expect((await failure(api.orgs.addMemberToOrganizationTeamById(orgId, writers, dan.id, { role: 'boss' as never }))).code).toBe(400);
        expect((await failure(api.orgs.updateMembersInOrganizationTeam(orgId, writers, { add: 'bob' as never }))).code).toBe(400);
        expect((await failure(client(eve).orgs.listTeamMembersInOrganizationById(orgId, writers))).code).toBe(404);
        expect((await failure(client(eve).orgs.listTeamsForOrganizationMember(orgId, bob.id))).code).toBe(404);

        const removed = await api.orgs.deleteMemberFromOrganizationTeamById(orgId, writers, dan.id);
        expect(removed.status).toBe(205);
        const again = await api.orgs.deleteMemberFromOrganizationTeamById(orgId, writers, dan.id);
        expect(again.status).toBe(204);
        const after = await api.orgs.listTeamMembersInOrganizationById(orgId, writers);
        expect(after.data.items.map((m: { organization: { user: Id } }) => m.organization.user.id)).toEqual([bob.id, cyd.id]);
      });

      it('deletes a team: 205, then 204, then 404 on read', async () => {
        const api = client(ada);
        expect((await failure(client(cyd).orgs.removeTeamFromOrganizationById(orgId, reviewers))).code).toBe(403);
        expect((await failure(client(eve).orgs.removeTeamFromOrganizationById(orgId, reviewers))).code).toBe(404);
        const removed = await api.orgs.removeTeamFromOrganizationById(orgId, reviewers);
        expect(removed.status).toBe(205);
        const again = await api.orgs.removeTeamFromOrganizationById(orgId, reviewers);
        expect(again.status).toBe(204);
        expect((await failure(api.orgs.getTeamInOrganizationById(orgId, reviewers))).code).toBe(404);
        const bobsTeams = await api.orgs.listTeamsForOrganizationMember(orgId, bob.id);
        expect(bobsTeams.data.items.map((item: { team: Id }) => item.team.id)).toEqual([writers]);
      });
    });

    describe('collections and spaces', () => {
      let guides: string;
      let nested: string;
      let handbook: string;
      let rootSpace: string;

      it('creates collections and lists them, nested or top-level only, page by page', async () => {
        const api = client(ada);
        const created = await api.orgs.createCollection(orgId, { title: 'Guides' });
        expect(created.status).toBe(201);
        expect(created.data).toMatchObject({ object: 'collection', title: 'Guides', organization: orgId });
        guides = created.data.id;
        tick();
        const child = await api.orgs.createCollection(orgId, { title: 'Nested', parent: guides });
        expect(child.data).toMatchObject({ title: 'Nested', parent: guides });
        nested = child.data.id;
        tick();
        const top = (await api.orgs.createCollection(orgId, { title: 'Reference' })).data.id;

        const all = await walk<Id>((page) => api.orgs.listCollectionsInOrganizationById(orgId, { limit: 2, page }));
        expect(all.pages).toBe(2);
        expect(ids(all.items)).toEqual([guides, nested, top]);
        const explicit = await api.orgs.listCollectionsInOrganizationById(orgId, { nested: true });
        expect(ids(explicit.data.items)).toEqual([guides, nested, top]);
        const topLevel = await walk<Id>((page) => api.orgs.listCollectionsInOrganizationById(orgId, { nested: false, limit: 1, page }));
        expect(ids(topLevel.items)).toEqual([guides, top]);

        expect((await failure(client(dan).orgs.createCollection(orgId, { title: 'Nope' }))).code).toBe(403);
        expect((await failure(client(eve).orgs.createCollection(orgId, { title: 'Nope' }))).code).toBe(404);
        expect((await failure(client(eve).orgs.listCollectionsInOrganizationById(orgId))).code).toBe(404);
        expect((await failure(api.orgs.createCollection(orgId, { title: 'x'.repeat(51) }))).code).toBe(400);
        expect((await failure(api.orgs.listCollectionsInOrganizationById(orgId, { nested: 'maybe' as never }))).code).toBe(400);
        expect((await failure(api.orgs.listCollectionsInOrganizationById(orgId, { limit: 1001 }))).code).toBe(400);
        expect((await api.orgs.listCollectionsInOrganizationById(orgId)).data.count).toBe(3);
      });

      it('gets and updates a collection', async () => {
        const api = client(ada);
        const got = await client(dan).collections.getCollectionById(guides);
        expect(got.status).toBe(200);
        expect(got.data).toMatchObject({ id: guides, title: 'Guides', permissions: { admin: false } });
        const updated = await api.collections.updateCollectionById(guides, { title: 'User Guides', description: 'How to', defaultLevel: 'inherit' });
        expect(updated.status).toBe(200);
        expect(updated.data).toMatchObject({ id: guides, title: 'User Guides', description: 'How to', defaultLevel: 'inherit' });

        expect((await failure(client(dan).collections.updateCollectionById(guides, { title: 'Mine' }))).code).toBe(403);
        expect((await failure(client(eve).collections.getCollectionById(guides))).code).toBe(404);
        expect((await failure(client(eve).collections.updateCollectionById(guides, { title: 'Mine' }))).code).toBe(404);
        expect((await failure(api.collections.updateCollectionById(guides, { defaultLevel: 'boss' as never }))).code).toBe(400);
        expect((await failure(api.collections.getCollectionById('missing'))).code).toBe(404);
        expect((await api.collections.getCollectionById(guides)).data.title).toBe('User Guides');
      });

      it('creates, lists, gets and updates spaces', async () => {
        const api = client(ada);
        const created = await api.orgs.createSpace(orgId, { title: 'Handbook', parent: guides });
        expect(created.status).toBe(201);
        expect(created.data).toMatchObject({ object: 'space', title: 'Handbook', organization: orgId, parent: guides });
        handbook = created.data.id;
        tick();
        rootSpace = (await api.orgs.createSpace(orgId, { title: 'Changelog', emoji: '1f4d8' })).data.id;
        tick();
        const inNested = (await api.orgs.createSpace(orgId, { title: 'Deep', parent: nested })).data.id;

        const all = await walk<Id>((page) => api.orgs.listSpacesInOrganizationById(orgId, { limit: 2, page }));
        expect(all.pages).toBe(2);
        expect(ids(all.items)).toEqual([handbook, rootSpace, inNested]);
        const inGuides = await api.collections.listSpacesInCollectionById(guides);
        expect(ids(inGuides.data.items)).toEqual([handbook]);

        const got = await api.spaces.getSpaceById(handbook);
        expect(got.data).toMatchObject({ id: handbook, title: 'Handbook', parent: guides });
        const shared = await api.spaces.getSpaceById(handbook, { shareKey: 'k' });
        expect(shared.data.id).toBe(handbook);
        const updated = await client(bob).spaces.updateSpaceById(handbook, { title: 'Team Handbook', emoji: '1f600' });
        expect(updated.status).toBe(200);
        expect(updated.data).toMatchObject({ id: handbook, title: 'Team Handbook', emoji: '1f600' });

        // Spaces of a member: the member themselves, or an admin.
        const dansSpaces = await walk<{ permission: string; space: Id }>((page) =>
          client(ada).orgs.listSpacesForOrganizationMember(orgId, dan.id, { limit: 2, page }),
        );
        expect(dansSpaces.items.map((item) => [item.space.id, item.permission])).toEqual([
          [handbook, 'read'],
          [rootSpace, 'read'],
          [inNested, 'read'],
        ]);
        const bobsOwn = await client(bob).orgs.listSpacesForOrganizationMember(orgId, bob.id, { order: 'desc' });
        expect(bobsOwn.data.items.map((item: { space: Id; permission: string }) => [item.space.id, item.permission])).toEqual([
          [inNested, 'edit'],
          [rootSpace, 'edit'],
          [handbook, 'edit'],
        ]);

        expect((await failure(client(dan).spaces.updateSpaceById(handbook, { title: 'Mine' }))).code).toBe(403);
        expect((await failure(client(dan).orgs.createSpace(orgId, { title: 'Mine' }))).code).toBe(403);
        expect((await failure(client(eve).spaces.getSpaceById(handbook))).code).toBe(404);
        expect((await failure(client(eve).orgs.createSpace(orgId, { title: 'Mine' }))).code).toBe(404);
        expect((await failure(client(eve).orgs.listSpacesInOrganizationById(orgId))).code).toBe(404);
        expect((await failure(client(eve).collections.listSpacesInCollectionById(guides))).code).toBe(404);
        expect((await failure(client(dan).orgs.listSpacesForOrganizationMember(orgId, bob.id))).code).toBe(403);
        expect((await failure(api.orgs.createSpace(orgId, { title: 'x'.repeat(51) }))).code).toBe(400);
        expect((await failure(api.spaces.updateSpaceById(handbook, { editMode: 'chaos' as never }))).code).toBe(400);
        expect((await failure(api.orgs.listSpacesInOrganizationById(orgId, { limit: 1001 }))).code).toBe(400);
        expect((await api.spaces.getSpaceById(handbook)).data.title).toBe('Team Handbook');
      });

      it('duplicates, moves, deletes and restores a space', async () => {
        const api = client(ada);
        const copy = await api.spaces.duplicateSpace(handbook);
        expect(copy.status).toBe(201);
        expect(copy.data.id).not.toBe(handbook);
        expect(copy.data).toMatchObject({ object: 'space', parent: guides, organization: orgId });
        const inGuides = await api.collections.listSpacesInCollectionById(guides, { limit: 1 });
        expect(inGuides.data.count).toBe(2);
        expect(ids((await walk<Id>((page) => api.collections.listSpacesInCollectionById(guides, { limit: 1, page }))).items)).toEqual([
          handbook,
          copy.data.id,
        ]);

        // Move the copy before the handbook, then to the root.
        const before = await api.spaces.moveSpace(copy.data.id, { position: { before: { type: 'space', space: handbook } } });
        expect(before.status).toBe(200);
        expect(before.data.parent).toBe(guides);
        expect(ids((await api.collections.listSpacesInCollectionById(guides)).data.items)).toEqual([copy.data.id, handbook]);
        const toRoot = await api.spaces.moveSpace(copy.data.id, { parent: null });
        expect(toRoot.data.id).toBe(copy.data.id);
        expect(toRoot.data.parent ?? null).toBeNull();
        expect(ids((await api.collections.listSpacesInCollectionById(guides)).data.items)).toEqual([handbook]);
        expect((await failure(client(eve).spaces.moveSpace(copy.data.id, { parent: guides }))).code).toBe(404);
        expect((await failure(api.spaces.moveSpace(copy.data.id, { parent: 'missing' }))).code).toBe(404);

        expect((await failure(client(dan).spaces.deleteSpaceById(copy.data.id))).code).toBe(403);
        const deleted = await api.spaces.deleteSpaceById(copy.data.id);
        expect(deleted.status).toBe(205);
        expect((await failure(api.spaces.getSpaceById(copy.data.id))).code).toBe(404);
        const restored = await api.spaces.restoreSpace(copy.data.id);
        expect(restored.status).toBe(200);
        expect(restored.data).toMatchObject({ id: copy.data.id, title: 'Team Handbook (copy)' });
        expect((await api.spaces.getSpaceById(copy.data.id)).data.id).toBe(copy.data.id);
        // Restoring a space that is not deleted is a conflict.
        expect((await failure(api.spaces.restoreSpace(copy.data.id))).code).toBe(409);
        expect((await failure(client(eve).spaces.restoreSpace(copy.data.id))).code).toBe(404);

        const gone = await api.spaces.deleteSpaceById(copy.data.id);
        expect(gone.status).toBe(205);
        // After the restore window the space is gone for good.
        t.clock.advance(8 * 24 * 60 * 60 * 1000);
        expect((await failure(api.spaces.restoreSpace(copy.data.id))).code).toBe(404);
      });

      it('transfers a space to another organization', async () => {
        const api = client(ada);
        // Bob sees the space but may not transfer it; Ada may not smuggle it into an organization she is not in.
        expect((await failure(client(bob).spaces.transferSpace(rootSpace, { organization: otherOrgId }))).code).toBe(403);
        expect((await failure(api.spaces.transferSpace(rootSpace, { organization: evesOrgId }))).code).toBe(404);
        expect((await failure(api.spaces.transferSpace(rootSpace, { organization: 'missing' }))).code).toBe(404);
        expect((await failure(client(eve).spaces.transferSpace(rootSpace, { organization: evesOrgId }))).code).toBe(404);
        expect((await failure(api.spaces.transferSpace(rootSpace, {} as never))).code).toBe(400);
        const moved = await api.spaces.transferSpace(rootSpace, { organization: otherOrgId });
        expect(moved.status).toBe(200);
        expect(moved.data).toMatchObject({ id: rootSpace, organization: otherOrgId });
        expect(ids((await api.orgs.listSpacesInOrganizationById(otherOrgId)).data.items)).toEqual([rootSpace]);
        expect(ids((await api.orgs.listSpacesInOrganizationById(orgId)).data.items)).not.toContain(rootSpace);
        expect((await failure(client(bob).spaces.getSpaceById(rootSpace))).code).toBe(404);
      });

      it('moves, transfers and deletes collections', async () => {
        const api = client(ada);
        // Nested -> root, then back inside the guides collection.
        const toRoot = await api.collections.moveCollection(nested, { parent: null });
        expect(toRoot.status).toBe(200);
        expect(toRoot.data.parent ?? null).toBeNull();
        const topLevel = await api.orgs.listCollectionsInOrganizationById(orgId, { nested: false });
        expect(ids(topLevel.data.items)).toContain(nested);
        const back = await api.collections.moveCollection(nested, { parent: guides, position: { before: { type: 'space', space: handbook } } });
        expect(back.data.parent).toBe(guides);
        expect(ids((await api.orgs.listCollectionsInOrganizationById(orgId, { nested: false })).data.items)).not.toContain(nested);
        expect((await failure(api.collections.moveCollection(guides, { parent: nested }))).code).toBe(400);
        expect((await failure(client(dan).collections.moveCollection(nested, { parent: null }))).code).toBe(403);
        expect((await failure(client(eve).collections.moveCollection(nested, { parent: null }))).code).toBe(404);

        // A new collection with a space in it goes to the other organization, space and all.
        const moving = (await api.orgs.createCollection(orgId, { title: 'Moving' })).data.id;
        const movingSpace = (await api.orgs.createSpace(orgId, { title: 'Luggage', parent: moving })).data.id;
        expect((await failure(client(bob).collections.transferCollection(moving, { organization: otherOrgId }))).code).toBe(403);
        expect((await failure(api.collections.transferCollection(moving, { organization: evesOrgId }))).code).toBe(404);
        expect((await failure(client(eve).collections.transferCollection(moving, { organization: evesOrgId }))).code).toBe(404);
        const transferred = await api.collections.transferCollection(moving, { organization: otherOrgId });
        expect(transferred.status).toBe(200);
        expect(transferred.data).toMatchObject({ id: moving, organization: otherOrgId });
        const luggage = await api.collections.listSpacesInCollectionById(moving);
        expect(luggage.data.items.map((s: Id & { organization: string }) => [s.id, s.organization])).toEqual([[movingSpace, otherOrgId]]);
        expect((await failure(client(bob).collections.getCollectionById(moving))).code).toBe(404);

        expect((await failure(client(dan).collections.deleteCollectionById(guides))).code).toBe(403);
        // To a stranger the collection does not exist: nothing to delete (204), and nothing is deleted.
        expect((await client(eve).collections.deleteCollectionById(guides)).status).toBe(204);
        expect((await client(eve).spaces.deleteSpaceById(handbook)).status).toBe(204);
        expect((await api.collections.getCollectionById(guides)).data.id).toBe(guides);
        const deleted = await api.collections.deleteCollectionById(guides);
        expect(deleted.status).toBe(205);
        const again = await api.collections.deleteCollectionById(guides);
        expect(again.status).toBe(204);
        expect((await failure(api.collections.getCollectionById(guides))).code).toBe(404);
        expect((await failure(api.collections.getCollectionById(nested))).code).toBe(404);
        expect((await failure(api.spaces.getSpaceById(handbook))).code).toBe(404);
        // Its spaces were soft-deleted: restorable, back at the root.
        const restored = await api.spaces.restoreSpace(handbook);
        expect(restored.data).toMatchObject({ id: handbook, title: 'Team Handbook' });
        expect(restored.data.parent ?? null).toBeNull();
      });
    });

    it('accepts the optional and nullable forms the client types allow', async () => {
      const api = client(ada);
      const space = await api.orgs.createSpace(otherOrgId, { title: 'Forms', emoji: '1f4d8', empty: true });
      expect(space.status).toBe(201);
      const cleared = await api.spaces.updateSpaceById(space.data.id, { emoji: null, icon: null });
      expect(cleared.data.emoji).toBe('');
      const french = await api.spaces.updateSpaceById(space.data.id, { language: 'fr', defaultLevel: 'inherit', editMode: 'locked' });
      expect(french.data).toMatchObject({ language: 'fr', defaultLevel: 'inherit', editMode: 'locked' });

      const untitled = await api.orgs.createCollection(otherOrgId, {});
      expect(untitled.data.title).toBe('Untitled');
      const closed = await api.collections.updateCollectionById(untitled.data.id, { defaultLevel: null as never, description: '' });
      expect(closed.data.defaultLevel).toBeNull();

      const org = await api.orgs.updateOrganizationById(otherOrgId, {
        logo: null,
        defaultContent: null,
        defaultRole: null,
        inviteLinks: true,
        ai: false,
        emailDomains: ['example.com'],
      });
      expect(org.data).toMatchObject({ id: otherOrgId, defaultRole: null, inviteLinks: true, emailDomains: ['example.com'] });

      const guest = await api.orgs.inviteUsersToOrganization(otherOrgId, { emails: [eve.email], role: null, sso: false });
      expect(guest.data.users).toEqual([eve.id]);
      const guests = await api.orgs.listMembersInOrganizationById(otherOrgId, { role: 'guest' });
      expect(guests.data.items.map((m: { user: Id; role: string | null }) => [m.user.id, m.role])).toEqual([[eve.id, null]]);

      // Team members given by e-mail, and an empty batch that changes nothing.
      const team = (await api.orgs.createOrganizationTeam(otherOrgId, { title: 'Guests' })).data.id;
      expect((await api.orgs.updateMembersInOrganizationTeam(otherOrgId, team, { add: [eve.email] })).status).toBe(204);
      expect((await api.orgs.updateMembersInOrganizationTeam(otherOrgId, team, {})).status).toBe(204);
      const members = await api.orgs.listTeamMembersInOrganizationById(otherOrgId, team);
      expect(members.data.items.map((m: { organization: { user: Id } }) => m.organization.user.id)).toEqual([eve.id]);
    });

    it('never refuses what the client adds on its own (headers, query serialization, empty bodies)', () => {
      // Every 400 above was provoked with a value the test chose to be bad, and names that field;
      // none is about a header, a content type or an unexpected property the client sent.
      const badRequests = exchanges.filter((e) => e.status === 400);
      expect(badRequests.length).toBeGreaterThan(20);
      for (const e of badRequests) {
        expect(JSON.stringify(e.body)).not.toMatch(/user-agent|content-type|should not exist/i);
      }
      const bodiless = exchanges.filter((e) => e.method === 'POST' && /\/(duplicate|restore)$/.test(new URL(e.url).pathname) && e.status < 300);
      expect(bodiless.length).toBeGreaterThanOrEqual(3);
      const agents = new Set(exchanges.map((e) => e.headers['User-Agent']));
      expect([...agents]).toEqual(expect.arrayContaining([expect.stringMatching(/^@gitbook\/api\/0\.146\.0$/)]));
      expect([...agents].every((agent) => /^@gitbook\/api\//.test(agent))).toBe(true);
    });

    it('lists members sorted by name with the current client (sort=name)', async () => {
      const res = await currentClient(ada).orgs.listMembersInOrganizationById(orgId, { sort: 'name', order: 'asc', limit: 100 });
      const names = res.data.items.map((m: { user: { displayName: string } }) => m.user.displayName);
      expect(names.length).toBeGreaterThan(1);
      expect(names).toEqual([...names].sort());
    });
  });
});
