import { TestApp, TestUser } from '@app/testing';

/** GET /v1/subdomains/{subdomain}: the organization behind a default hostname, for its members only. */
describe('subdomains', () => {
  let t: TestApp;
  let owner: TestUser;
  let guest: TestUser;
  let stranger: TestUser;
  let orgId: string;
  let hostname: string;
  let counter = 0;

  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t.close());

  beforeEach(async () => {
    owner = await t.user('Owner');
    guest = await t.user('Guest');
    stranger = await t.user('Stranger');
    orgId = await t.organization(owner, [[guest, null]]);
    await t.organization(stranger);
    hostname = `sub-${process.pid}-${Date.now() % 100000}-${counter++}`;
    expect((await owner.client.patch(`/v1/orgs/${orgId}`, { hostname })).status).toBe(200);
  });

  it('answers the organization using the hostname to its members, guests included, case-insensitively', async () => {
    for (const [who, asked] of [[owner, hostname], [guest, hostname.toUpperCase()]] as const) {
      const res = await who.client.get(`/v1/subdomains/${asked}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ object: 'subdomain', subdomain: hostname, target: { type: 'organization', organization: orgId }, isActive: true });
    }
  });

  it("answers 404 to a caller outside the organization, exactly as for a subdomain nobody uses", async () => {
    const taken = await stranger.client.get(`/v1/subdomains/${hostname}`);
    const free = await stranger.client.get(`/v1/subdomains/free-${hostname}`);
    expect(taken.status).toBe(404);
    expect(free.status).toBe(404);
    expect(taken.body.error.message).toBe(free.body.error.message.replace(`free-${hostname}`, hostname));
    expect(JSON.stringify(taken.body)).not.toContain(orgId);
  });

  it('forgets a hostname the organization gave up, and finds the new one', async () => {
    const next = `${hostname}-b`;
    expect((await owner.client.patch(`/v1/orgs/${orgId}`, { hostname: next })).status).toBe(200);
    expect((await owner.client.get(`/v1/subdomains/${hostname}`)).status).toBe(404);
    expect((await owner.client.get(`/v1/subdomains/${next}`)).body.subdomain).toBe(next);
  });

  it('refuses what cannot be a subdomain with 400, and callers without a token with 401', async () => {
    for (const bad of ['ab', '-abc', 'abc-', 'a_b_c', 'x'.repeat(33), 'dots.in.it']) {
      const res = await owner.client.get(`/v1/subdomains/${encodeURIComponent(bad)}`);
      expect(res.status).toBe(400);
      expect(res.body.error).toEqual({ code: 400, message: expect.stringContaining('subdomain') });
    }
    expect((await t.client().get(`/v1/subdomains/${hostname}`)).status).toBe(401);
  });
});
