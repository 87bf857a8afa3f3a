import { TestApp, TestUser } from '@app/testing';
import { whileLocked } from './support/waiting';

/** Organizations: create, list, get, invite, update. */
describe('organizations', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t.close());


  const orgRow = async (id: string) => (await t.dataSource.query('SELECT * FROM organizations WHERE id = $1', [id]))[0];
  const memberRole = async (orgId: string, userId: string): Promise<string | null | undefined> => {
    const rows = await t.dataSource.query('SELECT role FROM organization_members WHERE organization_id = $1 AND user_id = $2', [orgId, userId]);
    return rows.length ? rows[0].role : undefined;
  };
  const orgCount = async (userId: string): Promise<number> =>
    Number((await t.dataSource.query('SELECT count(*) AS n FROM organization_members WHERE user_id = $1', [userId]))[0].n);

  describe('POST /v1/orgs', () => {
    it('creates an organization whose creator is its admin', async () => {
      const alice = await t.user('Alice');
      const res = await alice.client.post('/v1/orgs', { title: 'Acme Docs', emailDomains: ['Acme.COM', 'acme.com'] });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        object: 'organization',
        title: 'Acme Docs',
        emailDomains: ['acme.com'],
        createdAt: t.clock.now().toISOString(),
        defaultRole: 'read',
        mergeRules: { type: 'none' },
        inviteLinks: false,
        permissions: { admin: true, view: true, listMembers: true, createContent: true },
      });
      expect(res.body.urls.location).toBe(`http://docs.test/v1/orgs/${res.body.id}`);
      expect(await memberRole(res.body.id, alice.id)).toBe('admin');
      const fetched = await alice.client.get(`/v1/orgs/${res.body.id}`);
      expect(fetched.status).toBe(200);
      expect(fetched.body).toEqual(res.body);
    });

    it.each([
      ['a 1-character title', { title: 'A' }],
      ['a 256-character title', { title: 'x'.repeat(256) }],
      ['a title of blanks', { title: '    ' }],
      ['no title', {}],
      ['a numeric title', { title: 42 }],
      ['a null title', { title: null }],
      ['an unknown field', { title: 'Acme', plan: 'enterprise' }],
      ['emailDomains that is not an array', { title: 'Acme', emailDomains: 'acme.com' }],
      ['a malformed e-mail domain', { title: 'Acme', emailDomains: ['not a domain'] }],
      ['a non-string e-mail domain', { title: 'Acme', emailDomains: [42] }],
    ])('refuses %s with a 400 and creates nothing', async (_name, body) => {
      const bob = await t.user();
      const res = await bob.client.post('/v1/orgs', body);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe(400);
      expect(await orgCount(bob.id)).toBe(0);
    });

    it('accepts exactly 2 and 255 characters', async () => {
      const bob = await t.user();
      expect((await bob.client.post('/v1/orgs', { title: 'AB' })).status).toBe(201);
      expect((await bob.client.post('/v1/orgs', { title: 'x'.repeat(255) })).status).toBe(201);
    });
  });

  describe('GET /v1/orgs', () => {
    it("lists only the caller's organizations, oldest first, with the caller's permissions", async () => {
      const carol = await t.user('Carol');
      const dave = await t.user('Dave');
      const own = await t.organization(carol, [], 'Carol Org');
      t.clock.advance(1000);
      const joined = await t.organization(dave, [[carol, 'read']], 'Dave Org');
      await t.organization(dave, [], 'Dave Only');
      const res = await carol.client.get('/v1/orgs');
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(2);
      expect(res.body.items.map((o: { id: string }) => o.id)).toEqual([own, joined]);
      expect(res.body.items[0].permissions.admin).toBe(true);
      expect(res.body.items[1].permissions).toMatchObject({ admin: false, view: true, listMembers: true, createContent: false });
      expect(res.body.next).toBeUndefined();
    });

    it('walks every page once, in order', async () => {
      const erin = await t.user('Erin');
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        ids.push(await t.organization(erin, [], `Org ${i}`));
        t.clock.advance(1000);
      }
      const seen: string[] = [];
      let page: string | undefined;
      let pages = 0;
      do {
        const res = await erin.client.get('/v1/orgs', { limit: 2, ...(page ? { page } : {}) });
        expect(res.status).toBe(200);
        expect(res.body.count).toBe(5);
        expect(res.body.items.length).toBeLessThanOrEqual(2);
        seen.push(...res.body.items.map((o: { id: string }) => o.id));
        page = res.body.next?.page;
        pages++;
      } while (page);
      expect(pages).toBe(3);
      expect(seen).toEqual(ids);
    });

    it('refuses limit=1001, limit=0 and a malformed cursor', async () => {
      const frank = await t.user();
      expect((await frank.client.get('/v1/orgs', { limit: 1001 })).status).toBe(400);
      expect((await frank.client.get('/v1/orgs', { limit: 0 })).status).toBe(400);
      expect((await frank.client.get('/v1/orgs', { page: 'not-a-cursor' })).status).toBe(400);
    });
  });

  describe('GET /v1/orgs/{organizationId}', () => {
    it('answers 404 to non-members and for unknown ids', async () => {
      const owner = await t.user();
      const stranger = await t.user();
      const orgId = await t.organization(owner);
      const res = await stranger.client.get(`/v1/orgs/${orgId}`);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe(404);
      expect((await owner.client.get('/v1/orgs/unknown-org-id')).status).toBe(404);
    });

    it('shows a guest member without member-listing permission', async () => {
      const owner = await t.user();
      const guest = await t.user();
      const orgId = await t.organization(owner, [[guest, null]]);
      const res = await guest.client.get(`/v1/orgs/${orgId}`);
      expect(res.status).toBe(200);
      expect(res.body.permissions).toMatchObject({ view: true, admin: false, listMembers: false, listTeams: false });
    });
  });

  describe('POST /v1/orgs/{organizationId}/invites', () => {
    let owner: TestUser;
    let orgId: string;
    beforeEach(async () => {
      owner = await t.user('Owner');
      orgId = await t.organization(owner);
    });

    it('adds existing users at once with the role given per e-mail, top-level, or the default role', async () => {
      const [a, b, c, d] = [await t.user(), await t.user(), await t.user(), await t.user()];
      const res = await owner.client.post(`/v1/orgs/${orgId}/invites`, {
        emails: [{ email: a.email.toUpperCase(), role: 'edit' }, { email: b.email, role: null }, c.email],
        role: 'review',
      });
      expect(res.status).toBe(200);
      expect(res.body.invited).toBe(3);
      expect([...res.body.users].sort()).toEqual([a.id, b.id, c.id].sort());
      expect(await memberRole(orgId, a.id)).toBe('edit');
      expect(await memberRole(orgId, b.id)).toBeNull();
      expect(await memberRole(orgId, c.id)).toBe('review');
      const byDefault = await owner.client.post(`/v1/orgs/${orgId}/invites`, { emails: [d.email] });
      expect(byDefault.status).toBe(200);
      expect(await memberRole(orgId, d.id)).toBe('read');
      expect((await a.client.get(`/v1/orgs/${orgId}`)).status).toBe(200);
    });

    it('keeps the role of someone who is already a member', async () => {
      const a = await t.user();
      await owner.client.must.post(`/v1/orgs/${orgId}/invites`, { emails: [{ email: a.email, role: 'create' }] });
      const again = await owner.client.post(`/v1/orgs/${orgId}/invites`, { emails: [{ email: a.email, role: 'read' }] });
      expect(again.status).toBe(200);
      expect(await memberRole(orgId, a.id)).toBe('create');
      expect(await memberRole(orgId, owner.id)).toBe('admin');
    });

    it('keeps unknown e-mails as pending invites, honoured when that user is created', async () => {
      const other = await t.user();
      const otherOrg = await t.organization(other);
      const email = `newcomer-${Date.now()}@example.com`;
      const res = await owner.client.post(`/v1/orgs/${orgId}/invites`, { emails: [{ email: email.toUpperCase(), role: 'comment' }] });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ users: [], invited: 1 });
      await other.client.must.post(`/v1/orgs/${otherOrg}/invites`, { emails: [email], role: null });
      const pending = await t.dataSource.query('SELECT organization_id, role FROM organization_invites WHERE email = $1 ORDER BY role', [email]);
      expect(pending).toHaveLength(2);

      const newcomer = await t.user('Newcomer', { email });
      expect(await memberRole(orgId, newcomer.id)).toBe('comment');
      expect(await memberRole(otherOrg, newcomer.id)).toBeNull();
      expect(await t.dataSource.query('SELECT 1 FROM organization_invites WHERE email = $1', [email])).toHaveLength(0);
      const orgs = await newcomer.client.get('/v1/orgs');
      expect(orgs.body.items.map((o: { id: string }) => o.id).sort()).toEqual([orgId, otherOrg].sort());
    });

    it('honours an invite sent while its e-mail is being registered', async () => {
      const email = `racer-${Date.now()}@example.com`;
      // Both use cases serialize on a per-address lock; hold it so they are in flight together.
      const [invited, registered] = (await whileLocked<unknown>(
        t,
        `SELECT pg_advisory_xact_lock(hashtext('organization-invite:' || $1::text))`,
        [email],
        2,
        () => [owner.client.post(`/v1/orgs/${orgId}/invites`, { emails: [{ email, role: 'review' }] }), t.user('Racer', { email })],
      )) as [{ status: number }, TestUser];
      expect(invited.status).toBe(200);
      expect(await memberRole(orgId, registered.id)).toBe('review');
      expect(await t.dataSource.query('SELECT 1 FROM organization_invites WHERE email = $1', [email])).toHaveLength(0);
    });

    it('refreshes a pending invite when the same e-mail is invited again', async () => {
      const email = `twice-${Date.now()}@example.com`;
      await owner.client.must.post(`/v1/orgs/${orgId}/invites`, { emails: [email], role: 'read' });
      await owner.client.must.post(`/v1/orgs/${orgId}/invites`, { emails: [email], role: 'edit' });
      const rows = await t.dataSource.query('SELECT role FROM organization_invites WHERE organization_id = $1 AND email = $2', [orgId, email]);
      expect(rows).toEqual([{ role: 'edit' }]);
      const user = await t.user('Twice', { email });
      expect(await memberRole(orgId, user.id)).toBe('edit');
    });

    it('is for admins only; non-members get 404', async () => {
      const editor = await t.user();
      const stranger = await t.user();
      const target = await t.user();
      await owner.client.must.post(`/v1/orgs/${orgId}/invites`, { emails: [{ email: editor.email, role: 'create' }] });
      const forbidden = await editor.client.post(`/v1/orgs/${orgId}/invites`, { emails: [target.email] });
      expect(forbidden.status).toBe(403);
      const hidden = await stranger.client.post(`/v1/orgs/${orgId}/invites`, { emails: [target.email] });
      expect(hidden.status).toBe(404);
      expect(await memberRole(orgId, target.id)).toBeUndefined();
    });

    it.each([
      ['no e-mails', { emails: [] }],
      ['a missing emails field', { role: 'read' }],
      ['an invalid e-mail', { emails: ['not-an-email'] }],
      ['a bad role', { emails: ['x@example.com'], role: 'owner' }],
      ['a bad per-e-mail role', { emails: [{ email: 'x@example.com', role: 'superuser' }] }],
      ['an entry without role', { emails: [{ email: 'x@example.com' }] }],
      ['an entry with an unknown key', { emails: [{ email: 'x@example.com', role: 'read', team: 't' }] }],
      ['an unknown field', { emails: ['x@example.com'], message: 'hi' }],
      ['a non-boolean sso', { emails: ['x@example.com'], sso: 'yes' }],
      ['more than 100 e-mails', { emails: Array.from({ length: 101 }, (_, i) => `u${i}@example.com`) }],
    ])('refuses %s with a 400 and writes nothing', async (_name, body) => {
      const res = await owner.client.post(`/v1/orgs/${orgId}/invites`, body);
      expect(res.status).toBe(400);
      expect(await t.dataSource.query('SELECT 1 FROM organization_invites WHERE organization_id = $1', [orgId])).toHaveLength(0);
      const members = await t.dataSource.query('SELECT 1 FROM organization_members WHERE organization_id = $1', [orgId]);
      expect(members).toHaveLength(1);
    });

    it('writes nothing when one e-mail of the batch is invalid', async () => {
      const a = await t.user();
      const res = await owner.client.post(`/v1/orgs/${orgId}/invites`, { emails: [a.email, 'pending@example.com', 'bad address'] });
      expect(res.status).toBe(400);
      expect(await memberRole(orgId, a.id)).toBeUndefined();
      expect(await t.dataSource.query('SELECT 1 FROM organization_invites WHERE organization_id = $1', [orgId])).toHaveLength(0);
    });
  });

  describe('PATCH /v1/orgs/{organizationId}', () => {
    let owner: TestUser;
    let reader: TestUser;
    let orgId: string;
    beforeEach(async () => {
      owner = await t.user('Owner');
      reader = await t.user('Reader');
      orgId = await t.organization(owner, [[reader, 'read']]);
    });

    it('changes every setting and answers the updated organization', async () => {
      const hostname = `acme-${Date.now()}`;
      const res = await owner.client.patch(`/v1/orgs/${orgId}`, {
        title: 'Renamed',
        emailDomains: ['Example.org', 'docs.example.org'],
        hostname,
        defaultRole: 'edit',
        defaultContent: null,
        logo: 'https://cdn.example.org/logo.png',
        sso: true,
        ai: true,
        inviteLinks: true,
        mergeRules: {
          type: 'rules',
          rules: [
            { rule: 'require_specific_reviewers', users: [reader.id] },
            { rule: 'allow_bypass', users: [owner.id] },
            { rule: 'require_at_least_one_review' },
            { rule: 'custom', expression: 'true' },
          ],
        },
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        id: orgId,
        title: 'Renamed',
        emailDomains: ['example.org', 'docs.example.org'],
        hostname,
        defaultRole: 'edit',
        sso: true,
        ai: true,
        inviteLinks: true,
        mergeRules: {
          type: 'rules',
          rules: [
            { rule: 'require_specific_reviewers', users: [reader.id] },
            { rule: 'allow_bypass', users: [owner.id] },
            { rule: 'require_at_least_one_review' },
            { rule: 'custom', expression: 'true' },
          ],
        },
        permissions: { admin: true },
      });
      expect(res.body.urls.logo).toBe('https://cdn.example.org/logo.png');
      expect(res.body.defaultContent).toBeUndefined();
      const fetched = await reader.client.get(`/v1/orgs/${orgId}`);
      expect(fetched.body).toMatchObject({ title: 'Renamed', hostname, defaultRole: 'edit', mergeRules: res.body.mergeRules });
      expect(fetched.body.permissions.admin).toBe(false);
    });

    it('changes only the fields given and clears nullable ones with null', async () => {
      await owner.client.must.patch(`/v1/orgs/${orgId}`, { logo: 'https://e.org/l.png', ai: true });
      const res = await owner.client.patch(`/v1/orgs/${orgId}`, { logo: null, defaultRole: null });
      expect(res.status).toBe(200);
      expect(res.body.urls.logo).toBeUndefined();
      expect(res.body.defaultRole).toBeNull();
      expect(res.body.ai).toBe(true);
      expect(res.body.title).toBe('Acme Docs');
      const row = await orgRow(orgId);
      expect(row.logo_url).toBeNull();
      expect(row.default_role).toBeNull();
      const empty = await owner.client.patch(`/v1/orgs/${orgId}`, {});
      expect(empty.status).toBe(200);
      expect(empty.body.ai).toBe(true);
    });

    it('invites as guests once the default role is null', async () => {
      await owner.client.must.patch(`/v1/orgs/${orgId}`, { defaultRole: null });
      const newcomer = await t.user();
      await owner.client.must.post(`/v1/orgs/${orgId}/invites`, { emails: [newcomer.email] });
      expect(await memberRole(orgId, newcomer.id)).toBeNull();
    });

    it('refuses a hostname another organization uses (409), case-insensitively, and lets the owner keep its own', async () => {
      const other = await t.user();
      const otherOrg = await t.organization(other);
      const hostname = `taken-${Date.now()}`;
      expect((await other.client.patch(`/v1/orgs/${otherOrg}`, { hostname })).status).toBe(200);
      const res = await owner.client.patch(`/v1/orgs/${orgId}`, { hostname: hostname.toUpperCase(), title: 'Not applied' });
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe(409);
      const row = await orgRow(orgId);
      expect(row.hostname).toBeNull();
      expect(row.title).toBe('Acme Docs');
      expect((await other.client.patch(`/v1/orgs/${otherOrg}`, { hostname, title: 'Same host' })).status).toBe(200);
    });

    it('refuses any default site (there are no sites yet) with a 400', async () => {
      const res = await owner.client.patch(`/v1/orgs/${orgId}`, { defaultContent: { type: 'site', site: 'site-123' }, title: 'Not applied' });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(/defaultContent/);
      const row = await orgRow(orgId);
      expect(row.default_content).toBeNull();
      expect(row.title).toBe('Acme Docs');
    });

    it('refuses merge rules naming users who are not members, including members of another organization', async () => {
      const foreigner = await t.user();
      await t.organization(foreigner);
      for (const users of [[foreigner.id], [reader.id, foreigner.id], ['no-such-user']]) {
        const res = await owner.client.patch(`/v1/orgs/${orgId}`, { mergeRules: { type: 'rules', rules: [{ rule: 'allow_bypass', users }] } });
        expect(res.status).toBe(400);
        expect(res.body.error.message).toMatch(/not a member/);
      }
      expect((await orgRow(orgId)).merge_rules).toEqual({ type: 'none' });
    });

    it('answers 403 to non-admin members and 404 to non-members, changing nothing', async () => {
      const creator = await t.user();
      const stranger = await t.user();
      await owner.client.must.post(`/v1/orgs/${orgId}/invites`, { emails: [{ email: creator.email, role: 'create' }] });
      expect((await reader.client.patch(`/v1/orgs/${orgId}`, { title: 'Hacked' })).status).toBe(403);
      expect((await creator.client.patch(`/v1/orgs/${orgId}`, { title: 'Hacked' })).status).toBe(403);
      const hidden = await stranger.client.patch(`/v1/orgs/${orgId}`, { title: 'Hacked' });
      expect(hidden.status).toBe(404);
      expect((await stranger.client.patch('/v1/orgs/no-such-org', { title: 'Hacked' })).status).toBe(404);
      expect((await orgRow(orgId)).title).toBe('Acme Docs');
    });

    it.each([
      ['an unknown field', { title: 'New', plan: 'enterprise' }],
      ['a 1-character title', { title: 'A' }],
      ['a 256-character title', { title: 'x'.repeat(256) }],
      ['a null title', { title: null }],
      ['a bad default role', { defaultRole: 'owner' }],
      ['emailDomains that is not an array', { emailDomains: 'example.org' }],
      ['a malformed e-mail domain', { emailDomains: ['example'] }],
      ['a null emailDomains', { emailDomains: null }],
      ['a 2-character hostname', { hostname: 'ab' }],
      ['a 33-character hostname', { hostname: 'x'.repeat(33) }],
      ['a hostname with a dot', { hostname: 'acme.docs' }],
      ['a hostname with an underscore', { hostname: 'acme_docs' }],
      ['a hostname ending with a hyphen', { hostname: 'acme-' }],
      ['a null hostname', { hostname: null }],
      ['a logo that is not a URL', { logo: 'logo.png' }],
      ['a logo with another scheme', { logo: 'ftp://example.org/logo.png' }],
      ['a non-boolean sso', { sso: 'true' }],
      ['a null ai', { ai: null }],
      ['default content of another type', { defaultContent: { type: 'space', site: 's' } }],
      ['default content with an unknown key', { defaultContent: { type: 'site', site: 's', extra: 1 } }],
      ['default content that is a string', { defaultContent: 'site' }],
      ['merge rules that are a string', { mergeRules: 'none' }],
      ['merge rules of an unknown type', { mergeRules: { type: 'inherit' } }],
      ['merge rules without rules', { mergeRules: { type: 'rules' } }],
      ['an unknown merge rule', { mergeRules: { type: 'rules', rules: [{ rule: 'require_magic' }] } }],
      ['a reviewer rule without users', { mergeRules: { type: 'rules', rules: [{ rule: 'require_specific_reviewers' }] } }],
      ['a merge rule with an unknown key', { mergeRules: { type: 'rules', rules: [{ rule: 'require_agent_review', when: 'always' }] } }],
      ['a too long custom expression', { mergeRules: { type: 'rules', rules: [{ rule: 'custom', expression: 'x'.repeat(1025) }] } }],
      ['a null mergeRules', { mergeRules: null }],
    ])('refuses %s with a 400 and writes nothing', async (_name, body) => {
      const before = await orgRow(orgId);
      const res = await owner.client.patch(`/v1/orgs/${orgId}`, { ai: true, ...body });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe(400);
      expect(await orgRow(orgId)).toEqual(before);
    });

    it('keeps both of two concurrent changes to different fields', async () => {
      // Hold the organization row so both requests are in flight together, then let them go.
      const [a, b] = await whileLocked(t, 'SELECT 1 FROM organizations WHERE id = $1 FOR UPDATE', [orgId], 2, () => [
        owner.client.patch(`/v1/orgs/${orgId}`, { title: 'Concurrent title' }),
        owner.client.patch(`/v1/orgs/${orgId}`, { inviteLinks: true }),
      ]);
      expect([a.status, b.status]).toEqual([200, 200]);
      const row = await orgRow(orgId);
      expect(row.title).toBe('Concurrent title');
      expect(row.invite_links).toBe(true);
    });

    it('gives a hostname to only one of two organizations asking for it at once', async () => {
      const other = await t.user();
      const otherOrg = await t.organization(other);
      const hostname = `race-${Date.now()}`;
      const results = await Promise.all([
        owner.client.patch(`/v1/orgs/${orgId}`, { hostname }),
        other.client.patch(`/v1/orgs/${otherOrg}`, { hostname }),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
      const rows = await t.dataSource.query('SELECT id FROM organizations WHERE hostname = $1', [hostname]);
      expect(rows).toHaveLength(1);
    });
  });
});
