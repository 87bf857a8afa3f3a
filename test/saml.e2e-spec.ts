import { X509Certificate } from 'node:crypto';
import { TestApp, TestUser } from '@app/testing';
import request from 'supertest';
import { TestIdp, authnRequestFrom } from './saml.fixtures';

/**
 * SAML single sign-on: /v1/orgs/{organizationId}/saml, /sso, /members/{userId}/sso, and the
 * public sign-in endpoints under /sso/saml/{providerId} driven with SAMLResponses signed by a
 * throwaway identity provider.
 */
describe('SAML single sign-on', () => {
  let t: TestApp;
  let alice: TestUser; // admin of org
  let bob: TestUser; // read member of org
  let gina: TestUser; // guest of org
  let carol: TestUser; // admin of another org only
  let dave: TestUser; // member of the other org only
  let orgId: string;
  let otherOrgId: string;
  let teamId: string;
  let foreignTeamId: string;
  let idp: TestIdp;
  let impostor: TestIdp; // same entity id, another key
  const SSO_URL = 'https://idp.example.test/sso/saml';

  const saml = (org = orgId) => `/v1/orgs/${org}/saml`;
  const provider = (id: string, org = orgId) => `/v1/orgs/${org}/saml/${id}`;
  const local = (url: string) => url.replace(/^http:\/\/docs\.test/, '');
  const http = () => request(t.app.getHttpServer());

  function expectError(res: { status: number; body: any }, status: number, message?: RegExp) {
    expect(res.status).toBe(status);
    expect(res.body).toEqual({ error: { code: status, message: expect.any(String) } });
    if (message) expect(res.body.error.message).toMatch(message);
  }

  async function providerRows(): Promise<Record<string, unknown>[]> {
    return t.dataSource.query(
      'SELECT id, organization_id, label, entity_id, sso_url, certificate, default_team_id, default_role, status FROM saml_providers ORDER BY id',
    );
  }

  async function counts(): Promise<{ users: number; tokens: number; members: number; teamMembers: number }> {
    const [row] = await t.dataSource.query(
      `SELECT (SELECT count(*)::int FROM users) AS users, (SELECT count(*)::int FROM api_tokens) AS tokens,
              (SELECT count(*)::int FROM organization_members) AS members, (SELECT count(*)::int FROM team_members) AS "teamMembers"`,
    );
    return row;
  }

  async function createProvider(body: Record<string, unknown> = {}, org = orgId, by = alice) {
    const res = await by.client.post(saml(org), {
      label: 'Okta',
      entityID: idp.entityId,
      ssoURL: SSO_URL,
      certificate: idp.certificatePem,
      ...body,
    });
    expect(res.status).toBe(201);
    return res.body;
  }

  function postAcs(acsURL: string, samlResponse: string | undefined, extra: Record<string, string> = {}) {
    const form: Record<string, string> = { ...extra };
    if (samlResponse !== undefined) form.SAMLResponse = samlResponse;
    return http().post(local(acsURL)).type('form').send(form);
  }

  beforeAll(async () => {
    t = await TestApp.start();
    alice = await t.user('Alice');
    bob = await t.user('Bob');
    gina = await t.user('Gina');
    carol = await t.user('Carol');
    dave = await t.user('Dave');
    orgId = await t.organization(alice, [
      [bob, 'read'],
      [gina, null],
    ]);
    otherOrgId = await t.organization(carol, [[dave, 'edit']], 'Other Org');
    teamId = (await alice.client.put(`/v1/orgs/${orgId}/teams`, { title: 'SSO people' })).body.id;
    foreignTeamId = (await carol.client.put(`/v1/orgs/${otherOrgId}/teams`, { title: 'Foreign' })).body.id;
    idp = TestIdp.create();
    impostor = TestIdp.create(idp.entityId, 'impostor.example.test');
  });
  afterAll(() => t.close());

  describe('POST /orgs/{organizationId}/saml', () => {
    it('creates an active provider, with its service URLs and default team', async () => {
      const res = await alice.client.post(saml(), {
        label: 'Okta',
        entityID: idp.entityId,
        ssoURL: SSO_URL,
        certificate: idp.certificatePem,
        defaultTeam: teamId,
        defaultRole: 'edit',
      });
      expect(res.status).toBe(201);
      const id = res.body.id as string;
      expect(res.body).toEqual({
        object: 'saml-provider',
        id: expect.any(String),
        label: 'Okta',
        ssoURL: SSO_URL,
        entityID: idp.entityId,
        certificate: expect.stringMatching(/^-----BEGIN CERTIFICATE-----\n[\s\S]+\n-----END CERTIFICATE-----$/),
        defaultTeam: expect.objectContaining({ object: 'team', id: teamId, title: 'SSO people', members: 0 }),
        defaultRole: 'edit',
        createdAt: t.clock.now().toISOString(),
        status: 'active',
        service: {
          acsURL: `http://docs.test/sso/saml/${id}/acs`,
          startURL: `http://docs.test/sso/saml/${id}/start`,
          entityID: `http://docs.test/sso/saml/${id}/metadata`,
        },
        urls: { location: `http://docs.test/v1/orgs/${orgId}/saml/${id}` },
      });
      expect(res.headers.location).toBe(res.body.urls.location);
      expect(new X509Certificate(res.body.certificate).fingerprint256).toBe(new X509Certificate(idp.certificatePem).fingerprint256);
      const [row] = await t.dataSource.query('SELECT organization_id, default_team_id, status FROM saml_providers WHERE id = $1', [id]);
      expect(row).toEqual({ organization_id: orgId, default_team_id: teamId, status: 'active' });
    });

    it('accepts the certificate as a bare base64 body and answers it as PEM', async () => {
      const body = await createProvider({ label: 'Bare body', certificate: idp.certificateBody.replace(/(.{64})/g, '$1\n') });
      expect(body.certificate).toBe(new X509Certificate(idp.certificatePem).toString().trim());
      expect(body.defaultRole).toBe('read');
      expect(body).not.toHaveProperty('defaultTeam');
    });

    it('creates a pending provider from a label alone', async () => {
      const res = await alice.client.post(saml(), { label: 'Later' });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ label: 'Later', status: 'pending', ssoURL: 'about:blank', certificate: '', entityID: '', defaultRole: 'read' });
      const [row] = await t.dataSource.query('SELECT sso_url, certificate, status FROM saml_providers WHERE id = $1', [res.body.id]);
      expect(row).toEqual({ sso_url: null, certificate: null, status: 'pending' });
    });

    it('rejects bad input with 400, naming the field, and writes nothing', async () => {
      const before = await providerRows();
      const cases: [unknown, RegExp][] = [
        [{}, /label/],
        [{ label: '' }, /label/],
        [{ label: '   ' }, /label/],
        [{ label: 'x'.repeat(31) }, /label/],
        [{ label: 42 }, /label/],
        [{ label: null }, /label/],
        [{ label: 'Ok', certificate: 'not a certificate' }, /certificate/],
        [{ label: 'Ok', certificate: idp.certificateBody.slice(0, 300) }, /certificate/],
        [{ label: 'Ok', certificate: idp.privateKeyPem }, /certificate/],
        [{ label: 'Ok', certificate: 'A'.repeat(10001) }, /certificate/],
        [{ label: 'Ok', certificate: null }, /certificate/],
        [{ label: 'Ok', ssoURL: 'not a url' }, /ssoURL/],
        [{ label: 'Ok', ssoURL: 'javascript:alert(1)' }, /ssoURL/],
        [{ label: 'Ok', ssoURL: 'ftp://idp.example.test/sso' }, /ssoURL/],
        [{ label: 'Ok', ssoURL: `https://idp.example.test/${'x'.repeat(2048)}` }, /ssoURL/],
        [{ label: 'Ok', entityID: 'x'.repeat(1025) }, /entityID/],
        [{ label: 'Ok', entityID: 7 }, /entityID/],
        [{ label: 'Ok', defaultRole: 'owner' }, /defaultRole/],
        [{ label: 'Ok', defaultTeam: 12 }, /defaultTeam/],
        [{ label: 'Ok', defaultTeam: foreignTeamId }, /defaultTeam/],
        [{ label: 'Ok', defaultTeam: 'no-such-team' }, /defaultTeam/],
        [{ label: 'Ok', status: 'active' }, /status/],
        [{ label: 'Ok', service: {} }, /service/],
      ];
      for (const [body, message] of cases) {
        const res = await alice.client.post(saml(), body);
        expectError(res, 400, message);
      }
      expect(await providerRows()).toEqual(before);
    });

    it('is for organization admins only (403), and 404 for non-members', async () => {
      const before = await providerRows();
      expectError(await bob.client.post(saml(), { label: 'Nope' }), 403);
      expectError(await gina.client.post(saml(), { label: 'Nope' }), 403);
      expectError(await carol.client.post(saml(), { label: 'Nope' }), 404);
      expectError(await alice.client.post(saml('no-such-org'), { label: 'Nope' }), 404);
      expectError(await t.client().post(saml(), { label: 'Nope' }), 401);
      expect(await providerRows()).toEqual(before);
    });
  });

  describe('GET /orgs/{organizationId}/saml', () => {
    it('lists the organization providers oldest first; limit and next.page walk each once', async () => {
      const org = await t.organization(alice, [], 'Paging Org');
      const made: string[] = [];
      for (let i = 0; i < 5; i++) {
        made.push((await createProvider({ label: `P${i}` }, org)).id);
        t.clock.advance(1000);
      }
      const all = await alice.client.get(saml(org));
      expect(all.status).toBe(200);
      expect(all.body.count).toBe(5);
      expect(all.body.items.map((p: { id: string }) => p.id)).toEqual(made);
      expect(all.body.next).toBeUndefined();
      const seen: string[] = [];
      let page: string | undefined;
      do {
        const res = await alice.client.get(saml(org), { limit: 2, ...(page ? { page } : {}) });
        expect(res.status).toBe(200);
        expect(res.body.count).toBe(5);
        expect(res.body.items.length).toBeLessThanOrEqual(2);
        seen.push(...res.body.items.map((p: { id: string }) => p.id));
        page = res.body.next?.page;
      } while (page);
      expect(seen).toEqual(made);
    });

    it('never lists another organization providers', async () => {
      await createProvider({ label: 'Carol IdP' }, otherOrgId, carol);
      const mine = await alice.client.get(saml());
      expect(mine.body.items.every((p: { urls: { location: string } }) => p.urls.location.includes(`/orgs/${orgId}/`))).toBe(true);
      const theirs = await carol.client.get(saml(otherOrgId));
      expect(theirs.body.items.map((p: { label: string }) => p.label)).toEqual(['Carol IdP']);
    });

    it('rejects bad list parameters (400) and answers 403 to non-admins, 404 to strangers', async () => {
      expectError(await alice.client.get(saml(), { limit: 1001 }), 400);
      expectError(await alice.client.get(saml(), { limit: 0 }), 400);
      expectError(await alice.client.get(saml(), { page: 'garbage!' }), 400);
      expectError(await alice.client.get(saml(), { unknown: 1 }), 400);
      expectError(await bob.client.get(saml()), 403);
      expectError(await carol.client.get(saml()), 404);
    });
  });

  describe('GET, PATCH, DELETE /orgs/{organizationId}/saml/{samlProviderId}', () => {
    it('gets a provider; another organization id in the path or a foreign provider id is a 404', async () => {
      const created = await createProvider({ label: 'Get me' });
      const res = await alice.client.get(provider(created.id));
      expect(res.status).toBe(200);
      expect(res.body).toEqual(created);
      const carols = await createProvider({ label: 'Carol only' }, otherOrgId, carol);
      expectError(await alice.client.get(provider(carols.id)), 404);
      expectError(await carol.client.get(provider(created.id)), 404);
      expectError(await carol.client.get(provider(created.id, otherOrgId)), 404);
      expectError(await alice.client.get(provider('no-such-provider')), 404);
      expectError(await bob.client.get(provider(created.id)), 403);
    });

    it('patches fields, completes a pending provider and clears the default team', async () => {
      const pending = (await alice.client.post(saml(), { label: 'Pending', defaultTeam: teamId })).body;
      expect(pending.status).toBe('pending');
      const half = await alice.client.patch(provider(pending.id), { ssoURL: SSO_URL });
      expect(half.status).toBe(200);
      expect(half.body).toMatchObject({ status: 'pending', ssoURL: SSO_URL, label: 'Pending' });
      const done = await alice.client.patch(provider(pending.id), { certificate: idp.certificateBody, label: ' Done ', defaultRole: null });
      expect(done.status).toBe(200);
      expect(done.body).toMatchObject({ status: 'active', label: 'Done', defaultRole: null, defaultTeam: { id: teamId } });
      expect(done.body.createdAt).toBe(pending.createdAt);
      const cleared = await alice.client.patch(provider(pending.id), { defaultTeam: null });
      expect(cleared.status).toBe(200);
      expect(cleared.body).not.toHaveProperty('defaultTeam');
      const unchanged = await alice.client.patch(provider(pending.id), {});
      expect(unchanged.body).toEqual(cleared.body);
      expect((await alice.client.get(provider(pending.id))).body).toEqual(cleared.body);
    });

    it('rejects bad patches with 400 and leaves the provider as it was', async () => {
      const created = await createProvider({ label: 'Stable', defaultTeam: teamId });
      const before = await providerRows();
      const bodies: [unknown, RegExp][] = [
        [{ label: '' }, /label/],
        [{ label: null }, /label/],
        [{ certificate: 'MIIB' }, /certificate/],
        [{ certificate: null }, /certificate/],
        [{ ssoURL: 'idp.example.test/sso' }, /ssoURL/],
        [{ ssoURL: null }, /ssoURL/],
        [{ defaultRole: 'superuser' }, /defaultRole/],
        [{ defaultTeam: foreignTeamId }, /defaultTeam/],
        [{ label: 'Renamed', defaultTeam: foreignTeamId }, /defaultTeam/],
        [{ label: 'Renamed', extra: 1 }, /extra/],
      ];
      for (const [body, message] of bodies) expectError(await alice.client.patch(provider(created.id), body), 400, message);
      expect(await providerRows()).toEqual(before);
    });

    it('lets only admins patch (403) and hides other organizations (404)', async () => {
      const created = await createProvider({ label: 'Guarded' });
      expectError(await bob.client.patch(provider(created.id), { label: 'Bob was here' }), 403);
      expectError(await carol.client.patch(provider(created.id), { label: 'Carol was here' }), 404);
      expectError(await carol.client.patch(provider(created.id, otherOrgId), { label: 'Carol was here' }), 404);
      expectError(await alice.client.patch(provider('no-such-provider'), { label: 'x' }), 404);
      expect((await alice.client.get(provider(created.id))).body.label).toBe('Guarded');
    });

    it('deletes with 205, then answers 204; only admins, only in their organization', async () => {
      const created = await createProvider({ label: 'Doomed' });
      expectError(await bob.client.delete(provider(created.id)), 403);
      expectError(await carol.client.delete(provider(created.id)), 404);
      expect((await carol.client.delete(provider(created.id, otherOrgId))).status).toBe(204);
      expect(await t.dataSource.query('SELECT 1 FROM saml_providers WHERE id = $1', [created.id])).toHaveLength(1);
      expect((await alice.client.delete(provider(created.id))).status).toBe(205);
      expect(await t.dataSource.query('SELECT 1 FROM saml_providers WHERE id = $1', [created.id])).toHaveLength(0);
      expect((await alice.client.delete(provider(created.id))).status).toBe(204);
      expectError(await alice.client.get(provider(created.id)), 404);
    });

    it('drops the default team when the team is deleted', async () => {
      const team = (await alice.client.put(`/v1/orgs/${orgId}/teams`, { title: 'Short-lived' })).body.id;
      const created = await createProvider({ label: 'Team gone', defaultTeam: team });
      expect(created.defaultTeam.id).toBe(team);
      expect((await alice.client.delete(`/v1/orgs/${orgId}/teams/${team}`)).status).toBe(205);
      const res = await alice.client.get(provider(created.id));
      expect(res.status).toBe(200);
      expect(res.body).not.toHaveProperty('defaultTeam');
    });
  });

  describe('GET /orgs/{organizationId}/sso', () => {
    it('lists the active providers to every member, guests included', async () => {
      const org = await t.organization(alice, [
        [bob, 'read'],
        [gina, null],
      ], 'Login Org');
      const active = await createProvider({ label: 'Corporate' }, org);
      await alice.client.must.post(saml(org), { label: 'Not ready' });
      for (const who of [alice, bob, gina]) {
        const res = await who.client.get(`/v1/orgs/${org}/sso`);
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ items: [{ id: active.id, label: 'Corporate', startURL: active.service.startURL }] });
      }
      expectError(await carol.client.get(`/v1/orgs/${org}/sso`), 404);
      expectError(await t.client().get(`/v1/orgs/${org}/sso`), 401);
    });
  });

  describe('POST /orgs/{organizationId}/members/{userId}/sso', () => {
    it('flags a member as an SSO member, keeping their role', async () => {
      const res = await alice.client.post(`/v1/orgs/${orgId}/members/${bob.id}/sso`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ object: 'member', id: bob.id, role: 'read', sso: true, user: { id: bob.id } });
      const [row] = await t.dataSource.query('SELECT sso, role FROM organization_members WHERE organization_id = $1 AND user_id = $2', [orgId, bob.id]);
      expect(row).toEqual({ sso: true, role: 'read' });
    });

    it('is a 404 for a user who is not a member, 403 for non-admins, 404 for strangers; nothing changes', async () => {
      expectError(await alice.client.post(`/v1/orgs/${orgId}/members/${dave.id}/sso`), 404);
      expectError(await alice.client.post(`/v1/orgs/${orgId}/members/no-such-user/sso`), 404);
      expect(await t.dataSource.query('SELECT 1 FROM organization_members WHERE organization_id = $1 AND user_id = $2', [orgId, dave.id])).toHaveLength(0);
      expectError(await bob.client.post(`/v1/orgs/${orgId}/members/${gina.id}/sso`), 403);
      expectError(await carol.client.post(`/v1/orgs/${orgId}/members/${gina.id}/sso`), 404);
      expectError(await carol.client.post(`/v1/orgs/${otherOrgId}/members/${gina.id}/sso`), 404);
      const [row] = await t.dataSource.query('SELECT sso FROM organization_members WHERE organization_id = $1 AND user_id = $2', [orgId, gina.id]);
      expect(row.sso).toBe(false);
    });
  });

  describe('signing in', () => {
    let org: string;
    let team: string;
    let p: any; // an active provider of `org`, default role comment, default team `team`
    let member: TestUser; // an existing member of `org`

    const respond = (email: string, extra: Partial<Parameters<TestIdp['response']>[0]> = {}, by = idp) =>
      by.response({ email, acsURL: p.service.acsURL, audience: p.service.entityID, ...extra });

    async function membership(userId: string) {
      const rows = await t.dataSource.query('SELECT role, sso FROM organization_members WHERE organization_id = $1 AND user_id = $2', [org, userId]);
      return rows[0] ?? null;
    }

    beforeAll(async () => {
      member = await t.user('Member');
      org = await t.organization(alice, [[member, 'review']], 'SSO Org');
      team = (await alice.client.put(`/v1/orgs/${org}/teams`, { title: 'Newcomers' })).body.id;
      p = await createProvider({ label: 'Corporate IdP', defaultRole: 'comment', defaultTeam: team }, org);
    });

    it('GET startURL redirects to the IdP with a deflated AuthnRequest, without a token', async () => {
      const res = await http().get(local(p.service.startURL));
      expect(res.status).toBe(302);
      expect(res.headers['cache-control']).toBe('no-store');
      const { url, xml } = authnRequestFrom(res.headers.location);
      expect(`${url.origin}${url.pathname}`).toBe(SSO_URL);
      expect(xml).toContain('<samlp:AuthnRequest');
      expect(xml).toContain(`AssertionConsumerServiceURL="${p.service.acsURL}"`);
      expect(xml).toContain(`Destination="${SSO_URL}"`);
      expect(xml).toContain(`>${p.service.entityID}</saml:Issuer>`);
      expect(xml).toContain('ProtocolBinding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST"');
    });

    it('keeps query parameters of the IdP SSO URL', async () => {
      const withQuery = await createProvider({ label: 'Query', ssoURL: `${SSO_URL}?idpid=C0abc` }, org);
      const res = await http().get(local(withQuery.service.startURL));
      expect(res.status).toBe(302);
      const { url } = authnRequestFrom(res.headers.location);
      expect(url.searchParams.get('idpid')).toBe('C0abc');
      await alice.client.must.delete(provider(withQuery.id, org));
    });

    it('start answers 404 for an unknown provider and 409 for a pending one', async () => {
      expectError(await http().get('/sso/saml/no-such-provider/start'), 404);
      const pending = (await alice.client.post(saml(org), { label: 'Pending' })).body;
      expectError(await http().get(local(pending.service.startURL)), 409);
      expectError(await postAcs(pending.service.acsURL, respond('x@example.com')), 409);
      await alice.client.must.delete(provider(pending.id, org));
    });

    it('documents the sign-in endpoints and the ACS answer in the served OpenAPI document', async () => {
      const res = await http().get('/openapi.json');
      expect(res.status).toBe(200);
      const acs = res.body.paths['/sso/saml/{providerId}/acs'].post;
      expect(Object.keys(acs.requestBody.content)).toEqual(['application/x-www-form-urlencoded']);
      expect(acs.responses['200'].content['application/json'].schema.required).toEqual(['token', 'user', 'organization']);
      expect(res.body.paths['/sso/saml/{providerId}/start'].get).toBeDefined();
      expect(res.body.paths['/orgs/{organizationId}/saml'].post.operationId).toBe('createOrganizationSAMLProvider');
    });

    it('serves the SP metadata at the entity id', async () => {
      const res = await http().get(local(p.service.entityID));
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toContain('application/samlmetadata+xml');
      expect(res.text).toContain(`entityID="${p.service.entityID}"`);
      expect(res.text).toContain(`Location="${p.service.acsURL}"`);
    });

    it('signs in an unknown e-mail: a verified user, an SSO member with the default role and team, and a working token', async () => {
      const email = 'New.Person@Corp.Example';
      const before = await counts();
      const res = await postAcs(p.service.acsURL, respond(email, { displayName: 'New Person' }), { RelayState: 'ignored' });
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body).toEqual({
        token: expect.stringMatching(/^gbp_/),
        user: expect.objectContaining({ object: 'user', email: 'new.person@corp.example', displayName: 'New Person' }),
        organization: org,
      });
      const userId = res.body.user.id as string;
      const me = await t.client(res.body.token).get('/v1/user');
      expect(me.status).toBe(200);
      expect(me.body).toMatchObject({ id: userId, email: 'new.person@corp.example' });
      const [user] = await t.dataSource.query('SELECT email_verified FROM users WHERE id = $1', [userId]);
      expect(user.email_verified).toBe(true);
      const listed = await alice.client.get(`/v1/orgs/${org}/members/${userId}`);
      expect(listed.status).toBe(200);
      expect(listed.body).toMatchObject({ id: userId, role: 'comment', sso: true });
      const teamMembers = await alice.client.get(`/v1/orgs/${org}/teams/${team}/members`);
      expect(teamMembers.body.items.map((m: { organization: { id: string } }) => m.organization.id)).toEqual([userId]);
      expect(await counts()).toEqual({
        users: before.users + 1,
        tokens: before.tokens + 1,
        members: before.members + 1,
        teamMembers: before.teamMembers + 1,
      });
      // The new member sees the organization with their token.
      expect((await t.client(res.body.token).get(`/v1/orgs/${org}`)).status).toBe(200);
    });

    it('matches an existing member by e-mail, case-insensitively: no new user, role kept, flagged sso', async () => {
      const before = await counts();
      const res = await postAcs(p.service.acsURL, respond(member.email.toUpperCase(), { sign: 'response' }));
      expect(res.status).toBe(200);
      expect(res.body.user.id).toBe(member.id);
      expect(res.body.organization).toBe(org);
      expect(await membership(member.id)).toEqual({ role: 'review', sso: true });
      expect(await counts()).toEqual({ ...before, tokens: before.tokens + 1 });
      expect((await t.client(res.body.token).get('/v1/user')).body.id).toBe(member.id);
    });

    it("lets an existing user at one of the organization's e-mail domains join with the default role and team", async () => {
      const domain = `corp-${Date.now().toString(36)}.example`;
      expect((await alice.client.patch(`/v1/orgs/${org}`, { emailDomains: [domain] })).status).toBe(200);
      const existing = await t.user('Existing', { email: `existing@${domain}` });
      expect((await carol.client.post(`/v1/orgs/${otherOrgId}/invites`, { emails: [{ email: existing.email, role: 'edit' }] })).status).toBe(200);
      expect(await membership(existing.id)).toBeNull();
      const res = await postAcs(p.service.acsURL, respond(existing.email, { sign: 'both', nameIdOnly: true }));
      expect(res.status).toBe(200);
      expect(res.body.user).toMatchObject({ id: existing.id, displayName: 'Existing' });
      expect(await membership(existing.id)).toEqual({ role: 'comment', sso: true });
      const rows = await t.dataSource.query('SELECT 1 FROM team_members WHERE team_id = $1 AND user_id = $2', [team, existing.id]);
      expect(rows).toHaveLength(1);
      // Their membership elsewhere is untouched.
      const [other] = await t.dataSource.query('SELECT role, sso FROM organization_members WHERE organization_id = $1 AND user_id = $2', [otherOrgId, existing.id]);
      expect(other).toEqual({ role: 'edit', sso: false });
      await alice.client.must.patch(`/v1/orgs/${org}`, { emailDomains: [] });
    });

    it("refuses (403) an existing account that is neither a member nor at one of the organization's domains, until an admin invites it", async () => {
      // carol is another organization's admin; this organization's IdP asserts her address.
      const before = await counts();
      const refused = await postAcs(p.service.acsURL, respond(carol.email));
      expectError(refused, 403, /cannot sign in an existing account/);
      expect(refused.body.token).toBeUndefined();
      expect(await counts()).toEqual(before);
      expect(await membership(carol.id)).toBeNull();
      // Explicit linking: an admin of the organization invites the account, then SSO signs it in.
      expect((await alice.client.post(`/v1/orgs/${org}/invites`, { emails: [{ email: carol.email, role: 'read' }] })).status).toBe(200);
      const res = await postAcs(p.service.acsURL, respond(carol.email));
      expect(res.status).toBe(200);
      expect(res.body.user.id).toBe(carol.id);
      expect(await membership(carol.id)).toEqual({ role: 'read', sso: true });
      await alice.client.must.delete(`/v1/orgs/${org}/members/${carol.id}`);
    });

    it('limits the token it hands out to this organization: elsewhere the user is a stranger, on every route', async () => {
      // dave is an `edit` member of otherOrgId, and his own tokens keep working there.
      await alice.client.must.post(`/v1/orgs/${org}/invites`, { emails: [{ email: dave.email, role: 'read' }] });
      const res = await postAcs(p.service.acsURL, respond(dave.email));
      expect(res.status).toBe(200);
      const scoped = t.client(res.body.token);
      expect((await scoped.get(`/v1/orgs/${org}`)).status).toBe(200);
      expect((await scoped.get(`/v1/orgs/${otherOrgId}`)).status).toBe(404);
      expect((await scoped.get(`/v1/orgs/${otherOrgId}/members`)).status).toBe(404);
      expect((await scoped.get('/v1/orgs')).body.items.map((o: { id: string }) => o.id)).toEqual([org]);
      expect((await dave.client.get(`/v1/orgs/${otherOrgId}`)).status).toBe(200);

      // A space of the other organization dave can read with his own token.
      const space = await carol.client.post(`/v1/orgs/${otherOrgId}/spaces`, { title: 'Other handbook' });
      expect(space.status).toBe(201);
      expect((await dave.client.get(`/v1/spaces/${space.body.id}`)).status).toBe(200);
      expect((await scoped.get(`/v1/spaces/${space.body.id}`)).status).toBe(404);

      // Creating an organization is outside its one organization.
      const orgsBefore = (await t.dataSource.query('SELECT count(*)::int AS n FROM organizations'))[0].n;
      expectError(await scoped.post('/v1/orgs', { title: 'Escape' }), 403, /acts only in that organization/);
      expect((await t.dataSource.query('SELECT count(*)::int AS n FROM organizations'))[0].n).toBe(orgsBefore);

      // An organization dave could join by link or by his e-mail domain is out of reach with this token.
      const daveDomain = dave.email.slice(dave.email.indexOf('@') + 1);
      const open = await t.organization(carol, [], 'Open Org');
      expect((await carol.client.patch(`/v1/orgs/${open}`, { inviteLinks: true, emailDomains: [daveDomain] })).status).toBe(200);
      const link = await carol.client.post(`/v1/orgs/${open}/link-invites`, { role: 'edit' });
      expect(link.status).toBe(201);
      expectError(await scoped.post(`/v1/orgs/${open}/invites/${link.body.id}`), 404);
      expectError(await scoped.get(`/v1/orgs/${open}/invites/${link.body.id}`), 404);
      expectError(await scoped.post(`/v1/orgs/${open}/join`), 404);
      const listed = await scoped.get(`/v1/email-domains/${daveDomain}/orgs`);
      expect(listed.status).toBe(200);
      expect(listed.body.organizations.map((o: { id: string }) => o.id)).not.toContain(open);
      const rows = await t.dataSource.query('SELECT 1 FROM organization_members WHERE organization_id = $1 AND user_id = $2', [open, dave.id]);
      expect(rows).toHaveLength(0);
      // His own token still can: the refusals come from the SSO token's scope.
      expect((await dave.client.post(`/v1/orgs/${open}/join`)).status).toBe(204);
    });

    it('honours invitations waiting for the e-mail of a user it creates', async () => {
      const email = 'invited.later@corp.example';
      expect((await carol.client.post(`/v1/orgs/${otherOrgId}/invites`, { emails: [{ email, role: 'edit' }] })).status).toBe(200);
      const res = await postAcs(p.service.acsURL, respond(email));
      expect(res.status).toBe(200);
      const rows = await t.dataSource.query(
        'SELECT role FROM organization_members WHERE organization_id = $1 AND user_id = $2',
        [otherOrgId, res.body.user.id],
      );
      expect(rows).toEqual([{ role: 'edit' }]);
      expect(await t.dataSource.query('SELECT 1 FROM organization_invites WHERE email = $1', [email])).toEqual([]);
    });

    it('refuses a disabled member (403) and issues no token', async () => {
      const disabled = await t.user('Disabled');
      await alice.client.must.post(`/v1/orgs/${org}/invites`, { emails: [{ email: disabled.email, role: 'edit' }] });
      await t.dataSource.query('UPDATE organization_members SET disabled = true WHERE organization_id = $1 AND user_id = $2', [org, disabled.id]);
      const before = await counts();
      expectError(await postAcs(p.service.acsURL, respond(disabled.email)), 403, /disabled/);
      expect(await counts()).toEqual(before);
      expect(await membership(disabled.id)).toEqual({ role: 'edit', sso: false });
    });

    it('refuses an account the operator disabled (users:disable) with 403 and issues no token', async () => {
      const leaver = await t.user('Leaver');
      await alice.client.must.post(`/v1/orgs/${org}/invites`, { emails: [{ email: leaver.email, role: 'edit' }] });
      await t.dataSource.query('UPDATE users SET disabled_at = now() WHERE id = $1', [leaver.id]);
      const before = await counts();
      expectError(await postAcs(p.service.acsURL, respond(leaver.email)), 403, /disabled/);
      expect(await counts()).toEqual(before);
    });

    it('still signs in when the organization enforces SSO', async () => {
      const enforced = await alice.client.patch(`/v1/orgs/${org}`, { sso: true });
      expect(enforced.status).toBe(200);
      expect(enforced.body.sso).toBe(true);
      const res = await postAcs(p.service.acsURL, respond('enforced@corp.example'));
      expect(res.status).toBe(200);
      expect(await membership(res.body.user.id)).toEqual({ role: 'comment', sso: true });
      await alice.client.must.patch(`/v1/orgs/${org}`, { sso: false });
    });

    describe('one-time use', () => {
      const startRequestId = async (of = p) => authnRequestFrom((await http().get(local(of.service.startURL))).headers.location).id;

      it('refuses the same SAMLResponse posted twice (401): it signs in once', async () => {
        const once = respond('replayed@corp.example');
        expect((await postAcs(p.service.acsURL, once)).status).toBe(200);
        const before = await counts();
        expectError(await postAcs(p.service.acsURL, once), 401, /already been used/);
        expect(await counts()).toEqual(before);
      });

      it('lets concurrent posts of one SAMLResponse sign in only once', async () => {
        const once = respond('raced@corp.example');
        const results = await Promise.all(Array.from({ length: 4 }, () => postAcs(p.service.acsURL, once)));
        expect(results.map((r) => r.status).sort()).toEqual([200, 401, 401, 401]);
      });

      it('accepts a response to a request we issued, once; a second response to that request is refused', async () => {
        const requestId = await startRequestId();
        const res = await postAcs(p.service.acsURL, respond('sp.initiated@corp.example', { inResponseTo: requestId }));
        expect(res.status).toBe(200);
        const before = await counts();
        // A new assertion (new ID) answering the same request: the request was used up.
        expectError(await postAcs(p.service.acsURL, respond('sp.initiated@corp.example', { inResponseTo: requestId })), 401, /InResponseTo/);
        expect(await counts()).toEqual(before);
      });

      it('refuses an InResponseTo we never issued, or issued for another provider (401)', async () => {
        const before = await counts();
        expectError(await postAcs(p.service.acsURL, respond('unknown.request@corp.example', { inResponseTo: '_never-issued' })), 401, /InResponseTo/);
        const sibling = await createProvider({ label: 'Sibling start' }, org);
        const siblingRequest = await startRequestId(sibling);
        expectError(await postAcs(p.service.acsURL, respond('unknown.request@corp.example', { inResponseTo: siblingRequest })), 401, /InResponseTo/);
        await alice.client.must.delete(provider(sibling.id, org));
        expect(await counts()).toEqual(before);
        expect(await t.dataSource.query('SELECT 1 FROM users WHERE email = $1', ['unknown.request@corp.example'])).toHaveLength(0);
      });

      it('keeps issued request ids and used assertion ids in PostgreSQL with an expiry, pruning expired rows', async () => {
        await startRequestId();
        await t.dataSource.query(
          `INSERT INTO saml_message_ids (provider_id, kind, message_id, expires_at) VALUES ($1, 'assertion', '_stale', now() - interval '1 minute')`,
          [p.id],
        );
        expect((await postAcs(p.service.acsURL, respond('pruning@corp.example'))).status).toBe(200);
        const rows: { kind: string; message_id: string; live: boolean }[] = await t.dataSource.query(
          'SELECT kind, message_id, expires_at > now() AS live FROM saml_message_ids WHERE provider_id = $1',
          [p.id],
        );
        expect(rows.find((r) => r.message_id === '_stale')).toBeUndefined();
        expect(rows.every((r) => r.live)).toBe(true);
        expect(rows.some((r) => r.kind === 'request')).toBe(true);
        expect(rows.some((r) => r.kind === 'assertion')).toBe(true);
      });
    });

    describe('refuses, with a 4xx in the error shape and nothing written,', () => {
      const email = 'refused@corp.example';
      let before: Awaited<ReturnType<typeof counts>>;
      beforeEach(async () => {
        before = await counts();
      });
      afterEach(async () => {
        expect(await counts()).toEqual(before);
        expect(await t.dataSource.query('SELECT 1 FROM users WHERE email = $1', [email])).toHaveLength(0);
      });

      it('a response tampered with after signing (NameID and e-mail changed)', async () => {
        const signed = idp.responseXml({ email: 'someone.else@corp.example', acsURL: p.service.acsURL, audience: p.service.entityID });
        const tampered = signed.split('someone.else@corp.example').join(email);
        expect(tampered).not.toBe(signed);
        expectError(await postAcs(p.service.acsURL, Buffer.from(tampered).toString('base64')), 401, /Invalid signature/);
      });

      it('a response tampered with after signing the whole Response', async () => {
        const signed = idp.responseXml({ email: 'someone.else@corp.example', acsURL: p.service.acsURL, audience: p.service.entityID, sign: 'response' });
        const tampered = signed.split('someone.else@corp.example').join(email);
        expectError(await postAcs(p.service.acsURL, Buffer.from(tampered).toString('base64')), 401, /Invalid signature/);
      });

      it('an expired response (NotOnOrAfter in the past)', async () => {
        const issued = new Date(Date.now() - 20 * 60 * 1000);
        const expired = respond(email, { issueInstant: issued, notOnOrAfter: new Date(Date.now() - 5 * 60 * 1000) });
        expectError(await postAcs(p.service.acsURL, expired), 401, /expired/);
      });

      it('a response signed by another key', async () => {
        expectError(await postAcs(p.service.acsURL, respond(email, {}, impostor)), 401, /signature/i);
        expectError(await postAcs(p.service.acsURL, respond(email, { sign: 'both' }, impostor)), 401, /signature/i);
      });

      it('an unsigned response', async () => {
        expectError(await postAcs(p.service.acsURL, respond(email, { sign: 'none' })), 401, /signature/i);
      });

      it('a response meant for another provider (audience) or naming another issuer', async () => {
        expectError(await postAcs(p.service.acsURL, respond(email, { audience: 'http://docs.test/sso/saml/other/metadata' })), 401, /audience/);
        expectError(await postAcs(p.service.acsURL, respond(email, { issuer: 'https://other-idp.example.test' })), 401, /identity provider/);
        expectError(await postAcs(p.service.acsURL, respond(email, { acsURL: 'http://docs.test/sso/saml/other/acs' })), 401, /another service/);
      });

      it('a response of another provider of the same IdP posted to this ACS', async () => {
        const sibling = await createProvider({ label: 'Sibling' }, org);
        const forSibling = idp.response({ email, acsURL: sibling.service.acsURL, audience: sibling.service.entityID });
        expectError(await postAcs(p.service.acsURL, forSibling), 401, /audience/);
        await alice.client.must.delete(provider(sibling.id, org));
        before = await counts();
      });

      it('a missing or malformed SAMLResponse, and an unknown provider', async () => {
        expectError(await postAcs(p.service.acsURL, undefined), 400, /SAMLResponse/);
        expectError(await postAcs(p.service.acsURL, ''), 400, /SAMLResponse/);
        expectError(await postAcs(p.service.acsURL, Buffer.from('<not xml').toString('base64')), 401);
        expectError(await postAcs(p.service.acsURL, 'bm90IHhtbA=='), 401);
        expectError(await postAcs(p.service.acsURL, respond(email), { unexpected: 'field' }), 400);
        expectError(await postAcs(p.service.acsURL, 'A'.repeat(1024 * 1024 + 1)), 413);
        expectError(await postAcs('http://docs.test/sso/saml/no-such-provider/acs', respond(email)), 404);
      });
    });
  });
});
