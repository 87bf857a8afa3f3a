import { randomBytes } from 'node:crypto';
import { JWK, decodeProtectedHeader, importJWK, jwtVerify } from 'jose';
import { TestApp, TestUser } from '@app/testing';

/** Joining (by e-mail domain, by invite link), invite links, ping with visitor claims, agent instructions. */
describe('organization administration', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t.close());

  const hex = () => randomBytes(4).toString('hex');
  const newDomain = () => `acme-${hex()}.com`;
  /** A user whose address is at `domain` (verified unless told otherwise). */
  const userAt = (domain: string, name?: string, emailVerified = true) =>
    t.user(name, { email: `${(name ?? 'user').toLowerCase()}-${hex()}@${domain}`, emailVerified });

  /** An organization of `owner` with the given settings, and members at the given roles. */
  async function org(owner: TestUser, settings: Record<string, unknown> = {}, members: [TestUser, string | null][] = []): Promise<string> {
    const id = await t.organization(owner, members);
    if (Object.keys(settings).length > 0) {
      const res = await owner.client.patch(`/v1/orgs/${id}`, settings);
      if (res.status !== 200) throw new Error(`settings not applied: ${JSON.stringify(res.body)}`);
    }
    return id;
  }

  const membership = async (orgId: string, userId: string) =>
    (await t.dataSource.query('SELECT role, disabled, last_seen_at FROM organization_members WHERE organization_id = $1 AND user_id = $2', [orgId, userId]))[0] as
      | { role: string | null; disabled: boolean; last_seen_at: Date | null }
      | undefined;
  const count = async (sql: string, params: unknown[]) => Number((await t.dataSource.query(`SELECT count(*) AS n FROM ${sql}`, params))[0].n);
  const linkCount = (orgId: string) => count('organization_link_invites WHERE organization_id = $1', [orgId]);

  describe('POST /v1/orgs/{organizationId}/join', () => {
    it("joins a verified user of one of the organization's domains with its default role", async () => {
      const domain = newDomain();
      const owner = await t.user('Owner');
      const orgId = await org(owner, { emailDomains: [domain, 'other.example.com'], defaultRole: 'edit' });
      const ada = await userAt(domain, 'Ada');
      expect((await ada.client.get(`/v1/orgs/${orgId}`)).status).toBe(404);
      const res = await ada.client.post(`/v1/orgs/${orgId}/join`);
      expect(res.status).toBe(204);
      expect(res.body).toBeUndefined();
      expect(await membership(orgId, ada.id)).toMatchObject({ role: 'edit', disabled: false });
      const fetched = await ada.client.get(`/v1/orgs/${orgId}`);
      expect(fetched.status).toBe(200);
      expect(fetched.body.permissions.admin).toBe(false);
    });

    it('joins as a guest when the default role is null, and matches the domain case-insensitively', async () => {
      const domain = newDomain();
      const owner = await t.user();
      const orgId = await org(owner, { emailDomains: [domain.toUpperCase()], defaultRole: null });
      const ada = await t.user('Ada', { email: `Ada-${hex()}@${domain.toUpperCase()}` });
      expect((await ada.client.post(`/v1/orgs/${orgId}/join`)).status).toBe(204);
      expect(await membership(orgId, ada.id)).toMatchObject({ role: null });
    });

    it('answers 204 and changes nothing for a member, whatever their domain', async () => {
      const domain = newDomain();
      const owner = await t.user();
      const reader = await userAt(domain);
      const orgId = await org(owner, { emailDomains: [domain], defaultRole: 'create' }, [[reader, 'read']]);
      expect((await owner.client.post(`/v1/orgs/${orgId}/join`)).status).toBe(204);
      expect((await reader.client.post(`/v1/orgs/${orgId}/join`)).status).toBe(204);
      expect(await membership(orgId, owner.id)).toMatchObject({ role: 'admin' });
      expect(await membership(orgId, reader.id)).toMatchObject({ role: 'read' });
    });

    it('does not re-enable a disabled member', async () => {
      const domain = newDomain();
      const owner = await t.user();
      const ada = await userAt(domain);
      const orgId = await org(owner, { emailDomains: [domain] }, [[ada, 'edit']]);
      await t.dataSource.query('UPDATE organization_members SET disabled = true WHERE organization_id = $1 AND user_id = $2', [orgId, ada.id]);
      expect((await ada.client.post(`/v1/orgs/${orgId}/join`)).status).toBe(204);
      expect(await membership(orgId, ada.id)).toMatchObject({ role: 'edit', disabled: true });
      expect((await ada.client.get(`/v1/orgs/${orgId}`)).status).toBe(404);
    });

    it('answers outsiders (another domain, a subdomain) exactly as for a missing organization (404); an unverified address of the domain is a 400', async () => {
      const domain = newDomain();
      const owner = await t.user();
      const orgId = await org(owner, { emailDomains: [domain] });
      const stranger = await userAt(newDomain());
      const sub = await userAt(`eng.${domain}`);
      const missing = await stranger.client.post('/v1/orgs/no-such-organization/join');
      expect(missing.status).toBe(404);
      for (const user of [stranger, sub]) {
        const res = await user.client.post(`/v1/orgs/${orgId}/join`);
        expect(res.status).toBe(404);
        expect(res.body.error.message).toBe(missing.body.error.message.replace('no-such-organization', orgId));
        expect(await membership(orgId, user.id)).toBeUndefined();
      }
      const unverified = await userAt(domain, 'Unverified', false);
      const res = await unverified.client.post(`/v1/orgs/${orgId}/join`);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(/not verified/);
      expect(await membership(orgId, unverified.id)).toBeUndefined();
    });

    it('answers 404 for an organization that does not exist', async () => {
      const ada = await userAt(newDomain());
      const res = await ada.client.post('/v1/orgs/no-such-organization/join');
      expect(res.status).toBe(404);
      expect(res.body.error.message).toMatch(/Organization/);
    });

    it('refuses with a 403 when the organization enforces SSO (to callers of its domain only)', async () => {
      const domain = newDomain();
      const owner = await t.user();
      const orgId = await org(owner, { emailDomains: [domain], sso: true });
      const ada = await userAt(domain);
      const res = await ada.client.post(`/v1/orgs/${orgId}/join`);
      expect(res.status).toBe(403);
      expect(res.body.error.message).toMatch(/single sign-on/);
      expect(await membership(orgId, ada.id)).toBeUndefined();
      const stranger = await userAt(newDomain());
      expect((await stranger.client.post(`/v1/orgs/${orgId}/join`)).status).toBe(404);
    });

    it('ends concurrent joins of the same user with one membership and no error', async () => {
      const domain = newDomain();
      const owner = await t.user();
      const orgId = await org(owner, { emailDomains: [domain], inviteLinks: true });
      const link = await owner.client.post(`/v1/orgs/${orgId}/link-invites`, { role: 'review' });
      const ada = await userAt(domain);
      const results = await Promise.all([
        ...Array.from({ length: 6 }, () => ada.client.post(`/v1/orgs/${orgId}/join`)),
        ...Array.from({ length: 6 }, () => ada.client.post(`/v1/orgs/${orgId}/invites/${link.body.id}`)),
      ]);
      expect(results.slice(0, 6).map((r) => r.status)).toEqual(Array(6).fill(204));
      expect(results.slice(6).map((r) => r.status)).toEqual(Array(6).fill(200));
      expect(await count('organization_members WHERE organization_id = $1 AND user_id = $2', [orgId, ada.id])).toBe(1);
    });
  });

  describe('GET /v1/email-domains/{emailDomain}/orgs', () => {
    it("lists the organizations joinable by the caller's own verified domain, with the caller's permissions", async () => {
      const domain = newDomain();
      const owner = await t.user();
      const ada = await userAt(domain);
      const first = await org(owner, { emailDomains: [domain] });
      t.clock.advance(1000);
      const second = await org(owner, { emailDomains: ['unrelated.example.org', domain] }, [[ada, 'read']]);
      await org(owner, { emailDomains: ['unrelated.example.org'] });
      const res = await ada.client.get(`/v1/email-domains/${domain}/orgs`);
      expect(res.status).toBe(200);
      expect(res.body.organizations.map((o: { id: string }) => o.id)).toEqual([first, second]);
      const [a, b] = res.body.organizations;
      expect(a).toMatchObject({ object: 'organization', id: first, emailDomains: [domain], permissions: { admin: false, listMembers: false } });
      expect(b.permissions).toMatchObject({ admin: false, listMembers: true });
      const upper = await ada.client.get(`/v1/email-domains/${domain.toUpperCase()}/orgs`);
      expect(upper.body.organizations.map((o: { id: string }) => o.id)).toEqual([first, second]);
    });

    it('leaves out organizations enforcing SSO unless the caller is a member', async () => {
      const domain = newDomain();
      const owner = await t.user();
      const ada = await userAt(domain);
      const open = await org(owner, { emailDomains: [domain] });
      t.clock.advance(1000);
      await org(owner, { emailDomains: [domain], sso: true });
      t.clock.advance(1000);
      const ssoMember = await org(owner, { emailDomains: [domain], sso: true }, [[ada, 'edit']]);
      const res = await ada.client.get(`/v1/email-domains/${domain}/orgs`);
      expect(res.body.organizations.map((o: { id: string }) => o.id)).toEqual([open, ssoMember]);
    });

    it('answers an empty list for any other domain and to unverified users, leaking nothing', async () => {
      const domain = newDomain();
      const owner = await t.user();
      await org(owner, { emailDomains: [domain] });
      const stranger = await userAt(newDomain());
      const unverified = await userAt(domain, 'Unverified', false);
      for (const [user, asked] of [
        [stranger, domain],
        [unverified, domain],
        [owner, domain],
      ] as const) {
        const res = await user.client.get(`/v1/email-domains/${asked}/orgs`);
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ organizations: [] });
      }
    });

    it('stops listing an organization once it drops the domain', async () => {
      const domain = newDomain();
      const owner = await t.user();
      const ada = await userAt(domain);
      const orgId = await org(owner, { emailDomains: [domain] });
      expect((await ada.client.get(`/v1/email-domains/${domain}/orgs`)).body.organizations).toHaveLength(1);
      expect((await owner.client.patch(`/v1/orgs/${orgId}`, { emailDomains: [] })).status).toBe(200);
      expect((await ada.client.get(`/v1/email-domains/${domain}/orgs`)).body.organizations).toEqual([]);
      expect((await ada.client.post(`/v1/orgs/${orgId}/join`)).status).toBe(404);
    });
  });

  describe('invite links', () => {
    let owner: TestUser;
    let reader: TestUser;
    let outsider: TestUser;
    let orgId: string;
    let otherOrgId: string;
    beforeAll(async () => {
      owner = await t.user('Owner');
      reader = await t.user('Reader');
      outsider = await t.user('Outsider');
      orgId = await org(owner, { inviteLinks: true }, [[reader, 'read']]);
      otherOrgId = await org(outsider, { inviteLinks: true });
    });

    const create = async (body: Record<string, unknown> = { role: 'edit' }) => {
      const res = await owner.client.post(`/v1/orgs/${orgId}/link-invites`, body);
      expect(res.status).toBe(201);
      return res.body as { id: string; role: string | null; redundant: boolean; createdAt: string; expiresAt?: string };
    };

    describe('POST /v1/orgs/{organizationId}/link-invites', () => {
      it('creates a link with an unguessable id', async () => {
        const res = await owner.client.post(`/v1/orgs/${orgId}/link-invites`, { role: 'edit' });
        expect(res.status).toBe(201);
        expect(res.body).toEqual({ object: 'invite', id: expect.stringMatching(/^[0-9A-Za-z]{32}$/), role: 'edit', redundant: true, createdAt: t.clock.now().toISOString() });
        const [row] = await t.dataSource.query('SELECT * FROM organization_link_invites WHERE id = $1', [res.body.id]);
        expect(row).toMatchObject({ organization_id: orgId, role: 'edit', created_by: owner.id, expires_at: null });
        const guest = await create({ role: null });
        expect(guest.role).toBeNull();
        const expiring = await create({ role: 'read', expiresAt: '2026-02-01T00:00:00Z' });
        expect(expiring.expiresAt).toBe('2026-02-01T00:00:00.000Z');
      });

      it('refuses while invite links are off (403) and creates nothing', async () => {
        const plain = await org(owner);
        const res = await owner.client.post(`/v1/orgs/${plain}/link-invites`, { role: 'read' });
        expect(res.status).toBe(403);
        expect(res.body.error.message).toMatch(/inviteLinks/);
        expect(await linkCount(plain)).toBe(0);
      });

      it.each([
        ['no role', {}],
        ['an unknown role', { role: 'owner' }],
        ['a numeric role', { role: 3 }],
        ['an unknown field', { role: 'read', secret: 'x' }],
        ['a space invite', { level: 'read', space: 'space-1' }],
        ['a collection invite', { level: 'read', collection: 'collection-1' }],
        ['a level on an organization invite', { role: 'read', level: 'read' }],
        ['a malformed expiry', { role: 'read', expiresAt: 'tomorrow' }],
        ['a past expiry', { role: 'read', expiresAt: '2020-01-01T00:00:00Z' }],
        ['a numeric expiry', { role: 'read', expiresAt: 1767225600 }],
      ])('refuses %s with a 400 and creates nothing', async (_name, body) => {
        const before = await linkCount(orgId);
        const res = await owner.client.post(`/v1/orgs/${orgId}/link-invites`, body);
        expect(res.status).toBe(400);
        expect(await linkCount(orgId)).toBe(before);
      });

      it('names the unsupported space and collection invites', async () => {
        const res = await owner.client.post(`/v1/orgs/${orgId}/link-invites`, { level: 'read', space: 'space-1' });
        expect(res.body.error.message).toMatch(/space or a collection are not supported/);
      });

      it('is for admins: a reader gets 403, a member of another organization 404', async () => {
        const before = await linkCount(orgId);
        expect((await reader.client.post(`/v1/orgs/${orgId}/link-invites`, { role: 'admin' })).status).toBe(403);
        expect((await outsider.client.post(`/v1/orgs/${orgId}/link-invites`, { role: 'admin' })).status).toBe(404);
        expect(await linkCount(orgId)).toBe(before);
      });
    });

    describe('GET /v1/orgs/{organizationId}/link-invites', () => {
      it('lists newest first and pages through every link exactly once', async () => {
        const listed = await org(owner, { inviteLinks: true });
        const ids: string[] = [];
        for (let i = 0; i < 5; i++) {
          t.clock.advance(1000);
          ids.push((await owner.client.post(`/v1/orgs/${listed}/link-invites`, { role: 'read' })).body.id);
        }
        const seen: string[] = [];
        let page: string | undefined;
        do {
          const res = await owner.client.get(`/v1/orgs/${listed}/link-invites`, { limit: 2, ...(page ? { page } : {}) });
          expect(res.status).toBe(200);
          expect(res.body.count).toBe(5);
          seen.push(...res.body.items.map((i: { id: string }) => i.id));
          page = res.body.next?.page;
        } while (page);
        expect(seen).toEqual([...ids].reverse());
      });

      it('refuses limit=1001, limit=0 and a malformed cursor', async () => {
        for (const query of [{ limit: 1001 }, { limit: 0 }, { page: 'not-a-cursor' }, { page: Buffer.from('["x","y"]').toString('base64url') }]) {
          expect((await owner.client.get(`/v1/orgs/${orgId}/link-invites`, query)).status).toBe(400);
        }
      });

      it('is for admins: a reader gets 403, a member of another organization 404', async () => {
        expect((await reader.client.get(`/v1/orgs/${orgId}/link-invites`)).status).toBe(403);
        expect((await outsider.client.get(`/v1/orgs/${orgId}/link-invites`)).status).toBe(404);
      });
    });

    describe('GET /v1/orgs/{organizationId}/link-invites/{inviteId}', () => {
      it('shows the link to admins and to whoever holds its id, with redundant for that caller', async () => {
        const link = await create({ role: 'edit' });
        const path = `/v1/orgs/${orgId}/link-invites/${link.id}`;
        expect((await owner.client.get(path)).body).toMatchObject({ id: link.id, role: 'edit', redundant: true });
        expect((await reader.client.get(path)).body).toMatchObject({ id: link.id, role: 'edit', redundant: false });
        const holder = await outsider.client.get(path);
        expect(holder.status).toBe(200);
        expect(holder.body).toMatchObject({ id: link.id, redundant: false });
      });

      it('answers 404 for unknown ids, links of another organization, and, except to admins, unusable links', async () => {
        const foreign = (await outsider.client.post(`/v1/orgs/${otherOrgId}/link-invites`, { role: 'read' })).body.id;
        expect((await owner.client.get(`/v1/orgs/${orgId}/link-invites/${foreign}`)).status).toBe(404);
        expect((await outsider.client.get(`/v1/orgs/${orgId}/link-invites/${foreign}`)).status).toBe(404);
        expect((await outsider.client.get(`/v1/orgs/${orgId}/link-invites/no-such-link`)).status).toBe(404);

        const expiring = await create({ role: 'read', expiresAt: new Date(t.clock.now().getTime() + 60_000).toISOString() });
        t.clock.advance(61_000);
        expect((await reader.client.get(`/v1/orgs/${orgId}/link-invites/${expiring.id}`)).status).toBe(404);
        expect((await owner.client.get(`/v1/orgs/${orgId}/link-invites/${expiring.id}`)).status).toBe(200);

        const switched = await org(owner, { inviteLinks: true });
        const link = (await owner.client.post(`/v1/orgs/${switched}/link-invites`, { role: 'read' })).body.id;
        await owner.client.must.patch(`/v1/orgs/${switched}`, { inviteLinks: false });
        expect((await outsider.client.get(`/v1/orgs/${switched}/link-invites/${link}`)).status).toBe(404);
        expect((await owner.client.get(`/v1/orgs/${switched}/link-invites/${link}`)).status).toBe(200);
      });
    });

    describe('PATCH /v1/orgs/{organizationId}/link-invites/{inviteId}', () => {
      it('changes the role the link grants', async () => {
        const link = await create({ role: 'edit' });
        const res = await owner.client.patch(`/v1/orgs/${orgId}/link-invites/${link.id}`, { role: null });
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ object: 'invite', id: link.id, role: null, redundant: true });
        expect((await t.dataSource.query('SELECT role FROM organization_link_invites WHERE id = $1', [link.id]))[0].role).toBeNull();
        const again = await owner.client.patch(`/v1/orgs/${orgId}/link-invites/${link.id}`, { role: 'create' });
        expect(again.body.role).toBe('create');
      });

      it.each([
        ['no role', {}],
        ['an unknown role', { role: 'owner' }],
        ['a level (content invites only)', { level: 'read' }],
        ['an unknown field', { role: 'read', expiresIn: 3 }],
        ['a boolean role', { role: true }],
      ])('refuses %s with a 400 and changes nothing', async (_name, body) => {
        const link = await create({ role: 'edit' });
        const res = await owner.client.patch(`/v1/orgs/${orgId}/link-invites/${link.id}`, body);
        expect(res.status).toBe(400);
        expect((await t.dataSource.query('SELECT role FROM organization_link_invites WHERE id = $1', [link.id]))[0].role).toBe('edit');
      });

      it('is for admins: a reader gets 403, an outsider 404, an unknown link 404', async () => {
        const link = await create({ role: 'edit' });
        expect((await reader.client.patch(`/v1/orgs/${orgId}/link-invites/${link.id}`, { role: 'admin' })).status).toBe(403);
        expect((await outsider.client.patch(`/v1/orgs/${orgId}/link-invites/${link.id}`, { role: 'admin' })).status).toBe(404);
        expect((await owner.client.patch(`/v1/orgs/${orgId}/link-invites/no-such-link`, { role: 'admin' })).status).toBe(404);
        expect((await t.dataSource.query('SELECT role FROM organization_link_invites WHERE id = $1', [link.id]))[0].role).toBe('edit');
      });
    });

    describe('DELETE /v1/orgs/{organizationId}/link-invites/{inviteId}', () => {
      it('deletes (205), then answers 204 when there is nothing to delete', async () => {
        const link = await create();
        expect((await owner.client.delete(`/v1/orgs/${orgId}/link-invites/${link.id}`)).status).toBe(205);
        expect(await count('organization_link_invites WHERE id = $1', [link.id])).toBe(0);
        expect((await owner.client.delete(`/v1/orgs/${orgId}/link-invites/${link.id}`)).status).toBe(204);
        const join = await outsider.client.post(`/v1/orgs/${orgId}/invites/${link.id}`);
        expect(join.status).toBe(404);
        expect(await membership(orgId, outsider.id)).toBeUndefined();
      });

      it('is for admins: a reader gets 403, an outsider 404, and the link stays', async () => {
        const link = await create();
        expect((await reader.client.delete(`/v1/orgs/${orgId}/link-invites/${link.id}`)).status).toBe(403);
        expect((await outsider.client.delete(`/v1/orgs/${orgId}/link-invites/${link.id}`)).status).toBe(404);
        const foreign = (await outsider.client.post(`/v1/orgs/${otherOrgId}/link-invites`, { role: 'read' })).body.id;
        expect((await owner.client.delete(`/v1/orgs/${orgId}/link-invites/${foreign}`)).status).toBe(204);
        expect(await count('organization_link_invites WHERE id = ANY($1)', [[link.id, foreign]])).toBe(2);
      });
    });

    describe('POST /v1/orgs/{organizationId}/invites/{inviteId}', () => {
      it("joins anyone holding the link with the link's role, even with an unverified address", async () => {
        const link = await create({ role: 'review' });
        const newcomer = await t.user('Newcomer', { emailVerified: false });
        const res = await newcomer.client.post(`/v1/orgs/${orgId}/invites/${link.id}`);
        expect(res.status).toBe(200);
        expect(res.body).toEqual({});
        expect(await membership(orgId, newcomer.id)).toMatchObject({ role: 'review', disabled: false });
        expect((await newcomer.client.get(`/v1/orgs/${orgId}/link-invites/${link.id}`)).body.redundant).toBe(true);
      });

      it('leaves a member as they are', async () => {
        const link = await create({ role: 'admin' });
        expect((await reader.client.post(`/v1/orgs/${orgId}/invites/${link.id}`)).status).toBe(200);
        expect(await membership(orgId, reader.id)).toMatchObject({ role: 'read' });
      });

      it('answers 404 for an expired, unknown or foreign link and for an unknown organization', async () => {
        const expiring = await create({ role: 'edit', expiresAt: new Date(t.clock.now().getTime() + 3_600_000).toISOString() });
        t.clock.advance(3_600_000);
        const newcomer = await t.user();
        const expired = await newcomer.client.post(`/v1/orgs/${orgId}/invites/${expiring.id}`);
        expect(expired.status).toBe(404);
        expect(expired.body.error.message).toMatch(/expired/);
        const foreign = (await outsider.client.post(`/v1/orgs/${otherOrgId}/link-invites`, { role: 'read' })).body.id;
        expect((await newcomer.client.post(`/v1/orgs/${orgId}/invites/${foreign}`)).status).toBe(404);
        expect((await newcomer.client.post(`/v1/orgs/${orgId}/invites/no-such-link`)).status).toBe(404);
        expect((await newcomer.client.post(`/v1/orgs/no-such-org/invites/${foreign}`)).status).toBe(404);
        expect(await count('organization_members WHERE user_id = $1', [newcomer.id])).toBe(0);
      });

      it('refuses (403) while invite links are off and when the organization enforces SSO', async () => {
        const switched = await org(owner, { inviteLinks: true });
        const link = (await owner.client.post(`/v1/orgs/${switched}/link-invites`, { role: 'read' })).body.id;
        const newcomer = await t.user();
        await owner.client.must.patch(`/v1/orgs/${switched}`, { inviteLinks: false });
        const off = await newcomer.client.post(`/v1/orgs/${switched}/invites/${link}`);
        expect(off.status).toBe(403);
        expect(off.body.error.message).toMatch(/turned off/);
        await owner.client.must.patch(`/v1/orgs/${switched}`, { inviteLinks: true, sso: true });
        const sso = await newcomer.client.post(`/v1/orgs/${switched}/invites/${link}`);
        expect(sso.status).toBe(403);
        expect(sso.body.error.message).toMatch(/single sign-on/);
        expect(await membership(switched, newcomer.id)).toBeUndefined();
        await owner.client.must.patch(`/v1/orgs/${switched}`, { sso: false });
        expect((await newcomer.client.post(`/v1/orgs/${switched}/invites/${link}`)).status).toBe(200);
        expect(await membership(switched, newcomer.id)).toMatchObject({ role: 'read' });
      });

      it('ends concurrent joins of the same user with one membership', async () => {
        const link = await create({ role: 'comment' });
        const newcomer = await t.user();
        const results = await Promise.all(Array.from({ length: 8 }, () => newcomer.client.post(`/v1/orgs/${orgId}/invites/${link.id}`)));
        expect(results.map((r) => r.status)).toEqual(Array(8).fill(200));
        expect(await count('organization_members WHERE organization_id = $1 AND user_id = $2', [orgId, newcomer.id])).toBe(1);
      });
    });
  });

  describe('POST /v1/orgs/{organizationId}/ping', () => {
    const publicKey = async (orgId: string) => {
      const [row] = await t.dataSource.query('SELECT kid, public_jwk, private_jwk FROM organization_signing_keys WHERE organization_id = $1', [orgId]);
      return { kid: row.kid as string, jwk: row.public_jwk as JWK, key: await importJWK(row.public_jwk as JWK, 'ES256') };
    };

    it('records the member as seen and returns visitor claims signed with the organization key', async () => {
      const owner = await t.user();
      const ada = await t.user('Ada Lovelace');
      const orgId = await org(owner, {}, [[ada, 'edit']]);
      expect((await membership(orgId, ada.id))?.last_seen_at).toBeNull();
      t.clock.advance(5_000);
      const res = await ada.client.post(`/v1/orgs/${orgId}/ping`);
      expect(res.status).toBe(200);
      expect((await membership(orgId, ada.id))?.last_seen_at?.toISOString()).toBe(t.clock.now().toISOString());
      const token = res.body.gitbookVisitorClaims as string;
      expect(res.body.serviceVisitorClaims).toBe(token);

      const { kid, jwk, key } = await publicKey(orgId);
      expect(jwk).not.toHaveProperty('d');
      expect(decodeProtectedHeader(token)).toEqual({ alg: 'ES256', kid, typ: 'JWT' });
      const { payload } = await jwtVerify(token, key, { algorithms: ['ES256'], issuer: 'http://docs.test', currentDate: t.clock.now() });
      const iat = Math.floor(t.clock.now().getTime() / 1000);
      expect(payload).toEqual({ iss: 'http://docs.test', sub: ada.id, email: ada.email, name: 'Ada Lovelace', organization: orgId, role: 'edit', iat, exp: iat + 900 });
      await expect(jwtVerify(token, key, { currentDate: new Date(t.clock.now().getTime() + 901_000) })).rejects.toThrow(/exp/);

      const listed = await owner.client.get(`/v1/orgs/${orgId}/members`, { sort: 'lastSeenAt' });
      expect(listed.body.items.map((m: { id: string }) => m.id)).toEqual([ada.id]);
      expect(listed.body.items[0].lastSeenAt).toBe(t.clock.now().toISOString());
    });

    it("keeps one key per organization: another organization's key does not verify the token", async () => {
      const owner = await t.user();
      const first = await org(owner);
      const second = await org(owner);
      const [a, b] = await Promise.all([owner.client.post(`/v1/orgs/${first}/ping`), owner.client.post(`/v1/orgs/${first}/ping`)]);
      const again = await owner.client.post(`/v1/orgs/${second}/ping`);
      expect(await count('organization_signing_keys WHERE organization_id = $1', [first])).toBe(1);
      const firstKey = (await publicKey(first)).key;
      for (const res of [a, b]) {
        const { payload } = await jwtVerify(res.body.gitbookVisitorClaims, firstKey, { currentDate: t.clock.now() });
        expect(payload).toMatchObject({ organization: first, role: 'admin' });
      }
      await expect(jwtVerify(again.body.gitbookVisitorClaims, firstKey, { currentDate: t.clock.now() })).rejects.toThrow(/signature/);
      const { payload } = await jwtVerify(again.body.gitbookVisitorClaims, (await publicKey(second)).key, { currentDate: t.clock.now() });
      expect(payload.organization).toBe(second);
    });

    it('answers guests too (role null) and 404 to non-members, recording nothing', async () => {
      const owner = await t.user();
      const guest = await t.user();
      const outsider = await t.user();
      const orgId = await org(owner, {}, [[guest, null]]);
      const res = await guest.client.post(`/v1/orgs/${orgId}/ping`);
      expect(res.status).toBe(200);
      const { payload } = await jwtVerify(res.body.gitbookVisitorClaims, (await publicKey(orgId)).key, { currentDate: t.clock.now() });
      expect(payload).toMatchObject({ sub: guest.id, role: null });
      expect((await outsider.client.post(`/v1/orgs/${orgId}/ping`)).status).toBe(404);
      expect((await outsider.client.post('/v1/orgs/no-such-org/ping')).status).toBe(404);
      expect(await membership(orgId, outsider.id)).toBeUndefined();
    });
  });

  describe('agent instructions', () => {
    const text = (value: string) => ({ object: 'text', leaves: [{ object: 'leaf', text: value, marks: [] }] });
    const document = (...paragraphs: string[]) => ({
      object: 'document',
      data: { schemaVersion: 1 },
      nodes: paragraphs.map((p) => ({ object: 'block', type: 'paragraph', nodes: [text(p)] })),
    });
    let owner: TestUser;
    let secondAdmin: TestUser;
    let reader: TestUser;
    let creator: TestUser;
    let guest: TestUser;
    let outsider: TestUser;
    let orgId: string;
    const path = () => `/v1/orgs/${orgId}/agent-instructions`;
    const stored = async () => (await t.dataSource.query('SELECT * FROM organization_agent_instructions WHERE organization_id = $1', [orgId]))[0];

    beforeAll(async () => {
      owner = await t.user();
      secondAdmin = await t.user();
      reader = await t.user();
      creator = await t.user();
      guest = await t.user();
      outsider = await t.user();
      orgId = await org(owner, {}, [
        [secondAdmin, 'admin'],
        [reader, 'read'],
        [creator, 'create'],
        [guest, null],
      ]);
      await org(outsider);
    });

    it('answers 404 before any were written', async () => {
      const res = await reader.client.get(path());
      expect(res.status).toBe(404);
      expect(res.body.error.message).toMatch(/no agent instructions yet/);
    });

    it('lets admins replace them and every non-guest member read them; guests get a 403', async () => {
      const res = await owner.client.put(path(), { instructions: document('Answer in English.', 'Be brief.') });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        object: 'agent-instructions',
        instructions: document('Answer in English.', 'Be brief.'),
        updatedAt: t.clock.now().toISOString(),
        updatedBy: owner.id,
        urls: { location: `http://docs.test/v1/orgs/${orgId}/agent-instructions` },
      });
      for (const member of [reader, secondAdmin]) {
        const read = await member.client.get(path());
        expect(read.status).toBe(200);
        expect(read.body).toEqual(res.body);
      }
      const byGuest = await guest.client.get(path());
      expect(byGuest.status).toBe(403);
      expect(byGuest.body.error.message).toMatch(/"read" role/);
      t.clock.advance(60_000);
      const replaced = await secondAdmin.client.put(path(), { instructions: document('Use the glossary.') });
      expect(replaced.body).toMatchObject({ updatedBy: secondAdmin.id, updatedAt: t.clock.now().toISOString(), instructions: document('Use the glossary.') });
      expect((await reader.client.get(path())).body).toEqual(replaced.body);
    });

    it('refuses non-admins with a 403 and non-members with a 404, changing nothing', async () => {
      await owner.client.must.put(path(), { instructions: document('Keep me.') });
      for (const member of [reader, creator, guest]) {
        const res = await member.client.put(path(), { instructions: document('Overwritten') });
        expect(res.status).toBe(403);
      }
      expect((await outsider.client.put(path(), { instructions: document('Overwritten') })).status).toBe(404);
      expect((await outsider.client.get(path())).status).toBe(404);
      expect((await stored()).instructions).toEqual(document('Keep me.'));
    });

    const deep = (levels: number) => {
      let node: unknown = { object: 'block', type: 'paragraph', nodes: [text('x')] };
      for (let i = 0; i < levels; i++) node = { object: 'block', type: 'blockquote', nodes: [node] };
      return { object: 'document', data: {}, nodes: [node] };
    };

    it.each([
      ['no instructions', {}],
      ['instructions that are text', { instructions: 'Be brief.' }],
      ['instructions that are null', { instructions: null }],
      ['an unknown body field', { instructions: document('x'), language: 'en' }],
      ['a document of the wrong kind', { instructions: { object: 'page', data: {}, nodes: [] } }],
      ['a document without nodes', { instructions: { object: 'document', data: {} } }],
      ['an unknown block type', { instructions: { object: 'document', data: {}, nodes: [{ object: 'block', type: 'iframe', nodes: [] }] } }],
      ['a block with an unknown property', { instructions: { object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', nodes: [], onclick: 'x' }] } }],
      ['a leaf without text', { instructions: { object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', marks: [] }] }] }] } }],
      ['a string schemaVersion', { instructions: { object: 'document', data: { schemaVersion: '1' }, nodes: [] } }],
      ['blocks nested too deep', { instructions: deep(40) }],
    ])('refuses %s with a 400 and keeps the previous instructions', async (_name, body) => {
      await owner.client.must.put(path(), { instructions: document('Previous.') });
      const before = await stored();
      t.clock.advance(1000);
      const res = await owner.client.put(path(), body);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe(400);
      expect(await stored()).toEqual(before);
    });

    it('names the offending node in the 400', async () => {
      const res = await owner.client.put(path(), {
        instructions: { object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', nodes: [] }, { object: 'block', type: 'iframe', nodes: [] }] },
      });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(/^instructions\.nodes\[1\]\.type: must be one of/);
    });

    // Without the depth check in the JSON body parser, the validation pipe's recursive DTO
    // transformation overflows the stack on such a body and answers 500 on every endpoint with a body.
    it('refuses an absurdly nested body with a 400, never a 500', async () => {
      const nested = '['.repeat(200_000) + ']'.repeat(200_000);
      const res = await owner.client.raw('put', path(), `{"instructions": {"object": "document", "data": {"x": ${nested}}, "nodes": []}}`);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(/deeper than 128 levels/);
    });
  });

  describe('PATCH /v1/orgs/{organizationId} defaultContent', () => {
    it('refuses a site that does not exist as invalid default content, changing nothing', async () => {
      const owner = await t.user();
      const orgId = await org(owner);
      const res = await owner.client.patch(`/v1/orgs/${orgId}`, { defaultContent: { type: 'site', site: 'no-such-site' }, inviteLinks: true });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(/invalid default content/);
      const [row] = await t.dataSource.query('SELECT default_content, invite_links FROM organizations WHERE id = $1', [orgId]);
      expect(row).toEqual({ default_content: null, invite_links: false });
    });
  });
});
