import request from 'supertest';
import { TestApp, TestUser } from '@app/testing';
import { TestWorker } from '@app/testing/test-worker';
import { commitContent } from './content.fixtures';
import { TestDnsServer } from './support/dns-server';
import { until } from './support/waiting';

/**
 * Sites' own host names, proved through DNS: a claim is served only once a TXT record holds its
 * token, looked up by the worker through the resolver the operator names (here a DNS server the test runs).
 */
describe('Custom host names (e2e)', () => {
  let t: TestApp;
  let worker: TestWorker;
  let dns: TestDnsServer;
  let alice: TestUser; // admin of Acme
  let rita: TestUser; // reads Acme
  let mallory: TestUser; // admin of another organization
  let acme: string;
  let elsewhere: string;
  let aliceSite: string;
  let mallorySite: string;
  const HOST = 'docs.acme.example';
  const CHALLENGE = `_docs-platform-challenge.${HOST}`;
  const hostname = (name = HOST) => `/v1/custom-hostnames/${name}`;
  const claimOf = async (user: TestUser) => (await user.client.get<any>(hostname())).body;
  const reader = (path = '/intro') => request(t.app.getHttpServer()).get(path).set('Host', HOST);

  beforeAll(async () => {
    dns = await TestDnsServer.start();
    t = await TestApp.start({ hostnames: { verification: 'dns', resolver: [dns.address] } });
    worker = await TestWorker.start(t);
    [alice, rita, mallory] = [await t.user('Alice'), await t.user('Rita'), await t.user('Mallory')];
    acme = await t.organization(alice, [[rita, 'read']], 'Acme');
    elsewhere = await t.organization(mallory, [], 'Elsewhere');
    const space = (await alice.client.post<any>(`/v1/orgs/${acme}/spaces`, { title: 'Guides' })).body.id;
    await commitContent(t, space, [{ id: 'intro', title: 'Introduction', slug: 'intro', body: 'Welcome to Acme.' }]);
    aliceSite = (await alice.client.post<any>(`/v1/orgs/${acme}/sites`, { title: 'Acme Docs', spaces: [space] })).body.id;
    await alice.client.must.post(`/v1/orgs/${acme}/sites/${aliceSite}/publish`);
    mallorySite = (await mallory.client.post<any>(`/v1/orgs/${elsewhere}/sites`, { title: 'Not Acme' })).body.id;
    await mallory.client.must.post(`/v1/orgs/${elsewhere}/sites/${mallorySite}/publish`);
  });
  afterAll(async () => {
    await worker.close();
    await t.close();
    await dns.close();
  });

  it('a claim is pending and serves nothing until DNS proves it; the first check finds no record', async () => {
    const claimed = await alice.client.patch<any>(`/v1/orgs/${acme}/sites/${aliceSite}`, { hostname: HOST });
    expect(claimed.status).toBe(200);
    expect(claimed.body.hostname).toBe(HOST);
    expect(claimed.body.urls.published).toMatch(/^http:\/\/docs\.test\/sites\//);
    const claim = await claimOf(alice);
    expect(claim).toMatchObject({ object: 'custom-hostname', hostname: HOST, target: { type: 'site', site: aliceSite }, isActive: false, verification: { type: 'TXT', name: CHALLENGE } });
    expect(claim.verification.value).toMatch(/^docs-platform-verification=/);
    const checked = await until('the first check', async () => ((await claimOf(alice)).status ? claimOf(alice) : undefined), 15000);
    expect(checked).toMatchObject({ status: 'dns_no_cname', isActive: false });
    expect(dns.questions).toContain(`TXT ${CHALLENGE}`);
    expect((await reader()).text).not.toContain('Welcome to Acme');
    expect((await t.client().post<any>('/v1/urls/published', { url: `http://${HOST}/intro` })).status).toBe(404);
  });

  it('a pending claim does not block another organization, and each sees only its own', async () => {
    const theirs = await mallory.client.patch<any>(`/v1/orgs/${elsewhere}/sites/${mallorySite}`, { hostname: HOST });
    expect(theirs.status).toBe(200);
    const [mine, hers] = [await claimOf(alice), await claimOf(mallory)];
    expect(hers.target.site).toBe(mallorySite);
    expect(hers.verification.value).not.toBe(mine.verification.value);
    expect(mine.target.site).toBe(aliceSite);
    expect((await rita.client.get<any>(hostname())).body.target.site).toBe(aliceSite);
    const stranger = await t.user('Stranger');
    expect((await stranger.client.get(hostname())).status).toBe(404);
    expect((await stranger.client.patch(hostname())).status).toBe(404);
  });

  it('a record with something else says so; the right record makes the name live for the site that holds the token', async () => {
    dns.records.set(CHALLENGE, ['google-site-verification=abc']);
    expect((await alice.client.patch(hostname())).status).toBe(204);
    await until('the wrong record to be seen', async () => (await claimOf(alice)).status === 'dns_wrong_cname', 15000);
    // Readers only: a member who cannot administer the site cannot ask for checks.
    expect((await rita.client.patch(hostname())).status).toBe(404);

    const token = (await claimOf(alice)).verification.value;
    dns.records.set(CHALLENGE, ['v=spf1 -all', token]);
    expect((await alice.client.patch(hostname())).status).toBe(204);
    const live = await until('the name to be live', async () => {
      const claim = await claimOf(alice);
      return claim.isActive ? claim : undefined;
    }, 15000);
    expect(live).toMatchObject({ status: 'live', isActive: true });
    expect(live.verification).toBeUndefined();
    expect((await reader()).text).toContain('Welcome to Acme');
    expect((await t.client().post<any>('/v1/urls/published', { url: `http://${HOST}/intro` })).body.site).toBe(aliceSite);
    expect((await alice.client.get<any>(`/v1/orgs/${acme}/sites/${aliceSite}`)).body.urls.published).toBe(`http://${HOST}`);
    expect((await alice.client.patch(hostname())).status).toBe(409);
  });

  it('another claim of a served name: proving it too changes nothing, a new claim is a 409', async () => {
    dns.records.set(CHALLENGE, [(await claimOf(alice)).verification?.value ?? 'x', (await claimOf(mallory)).verification.value]);
    expect((await mallory.client.patch(hostname())).status).toBe(204);
    await until('the late proof to be refused', async () => (await claimOf(mallory)).status === 'invalid_domain', 15000);
    expect((await claimOf(alice)).isActive).toBe(true);
    expect((await reader()).text).toContain('Welcome to Acme');
    const third = (await mallory.client.post<any>(`/v1/orgs/${elsewhere}/sites`, { title: 'Third' })).body.id;
    const taken = await mallory.client.patch<any>(`/v1/orgs/${elsewhere}/sites/${third}`, { hostname: HOST });
    expect(taken.status).toBe(409);
    expect(taken.body.error.message).toMatch(/served by another site/);
  });

  it('a failing lookup is recorded as an internal error', async () => {
    const other = 'help.acme.example';
    dns.failing.add(`_docs-platform-challenge.${other}`);
    const site = (await alice.client.post<any>(`/v1/orgs/${acme}/sites`, { title: 'Help' })).body.id;
    await alice.client.must.patch(`/v1/orgs/${acme}/sites/${site}`, { hostname: other });
    await until('the failed lookup', async () => (await alice.client.get<any>(hostname(other))).body.status === 'internal_error', 15000);
  });

  it('removing takes the name off the caller\'s sites only', async () => {
    expect((await rita.client.delete(hostname())).status).toBe(204);
    expect((await mallory.client.delete(hostname())).status).toBe(205);
    expect((await mallory.client.get(hostname())).status).toBe(404);
    expect((await mallory.client.get<any>(`/v1/orgs/${elsewhere}/sites/${mallorySite}`)).body.hostname).toBeUndefined();
    expect((await claimOf(alice)).isActive).toBe(true);
    expect((await alice.client.delete(hostname())).status).toBe(205);
    expect((await reader()).text).not.toContain('Welcome to Acme');
    expect((await alice.client.delete(hostname())).status).toBe(204);
  });
});
