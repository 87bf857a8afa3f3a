import { AddressInfo } from 'node:net';
import { TestApp, TestUser } from '@app/testing';
import { publish } from './search.fixtures';
import { startFakeAiProvider } from './support/fake-ai-provider';
import { contractTransport } from './support/contract-transport';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { GitBookAPI } = require('gitbook-api-current');

/**
 * The organization's model usage (getOrganizationAIUsage, through the current official client),
 * counted by the provider port for every call, and the daily budget: spent, Ask answers 429 with
 * Retry-After until midnight UTC; another organization's budget is its own.
 */
describe('AI usage and budgets', () => {
  let fake: Awaited<ReturnType<typeof startFakeAiProvider>>;
  let t: TestApp;
  let alice: TestUser, rita: TestUser, mallory: TestUser;
  let org: string, other: string;
  let endpoint: string;
  const api = (user: TestUser) => new GitBookAPI({ endpoint, authToken: user.token, serviceBinding: contractTransport() });

  beforeAll(async () => {
    fake = await startFakeAiProvider();
    t = await TestApp.start({ outboundAllowPrivate: true, aiApiUrl: fake.url, aiApiKey: 'sk-u', aiModel: 'fake-model', aiMaxRetries: 0, aiBudget: { requestsPerDay: 2, tokensPerDay: 0 } });
    [alice, rita, mallory] = [await t.user('Alice'), await t.user('Rita'), await t.user('Mallory')];
    org = await t.organization(alice, [[rita, 'read']]);
    other = await t.organization(mallory, [], 'Elsewhere');
    for (const [owner, organization] of [[alice, org], [mallory, other]] as const) {
      const space = (await owner.client.must.post<any>(`/v1/orgs/${organization}/spaces`, { title: 'Docs' })).body.id;
      await publish(t, space, [{ id: 'faq', title: 'FAQ', slug: 'faq', body: 'Reset the gadget by holding its button.' }]);
    }
    await t.app.listen(0, '127.0.0.1');
    endpoint = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    fake.answerWith(() => 'Hold the button [1].');
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('counts each call and refuses the organization whose budget for today is spent', async () => {
    for (let i = 0; i < 2; i++) expect((await rita.client.post<any>(`/v1/orgs/${org}/ask`, { query: 'reset gadget' })).status).toBe(200);
    const refused = await rita.client.post<any>(`/v1/orgs/${org}/ask`, { query: 'reset gadget' });
    expect(refused.status).toBe(429);
    expect(refused.body.error).toEqual({ code: 429, message: expect.stringContaining('budget for today is spent') });
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(86_400);
    expect((await rita.client.get<any>(`/v1/orgs/${org}/ask/stream`, { query: 'reset gadget' })).status).toBe(429);
    // Another organization's budget is its own.
    expect((await mallory.client.post<any>(`/v1/orgs/${other}/ask`, { query: 'reset gadget' })).status).toBe(200);
  });

  it('reports credits per period and feature, empty periods included', async () => {
    const now = t.clock.now().getTime();
    const report = (await api(alice).orgs.getOrganizationAiUsage(org, { from: new Date(now - 2 * 86_400_000).toISOString(), interval: 'day' })).data;
    expect(report.periods).toHaveLength(3);
    const today = report.periods.at(-1);
    // Two calls of two tokens each: a credit per call and one per started thousand tokens.
    expect(today).toEqual({ date: new Date(now).toISOString().slice(0, 10), credits: 4, features: [{ feature: 'ask', credits: 4, creditsPercent: 100 }] });
    expect(report.periods[0]).toMatchObject({ credits: 0, features: [] });
    expect(report.to).toBe(t.clock.now().toISOString());
    const byMonth = (await api(alice).orgs.getOrganizationAiUsage(org, { interval: 'month', from: new Date(now - 40 * 86_400_000).toISOString() })).data;
    expect(byMonth.periods.reduce((sum: number, p: any) => sum + p.credits, 0)).toBe(4);
  });

  it('is for organization admins, and refuses bad ranges', async () => {
    const get = (user: TestUser, query: Record<string, string> = {}) => user.client.get<any>(`/v1/orgs/${org}/billing/ai-usage`, query);
    expect((await get(rita)).status).toBe(403);
    expect((await get(mallory)).status).toBe(404);
    expect((await get(alice, { interval: 'fortnight' })).status).toBe(400);
    expect((await get(alice, { from: '2026-12-01T00:00:00Z', to: '2026-11-01T00:00:00Z' })).status).toBe(400);
    expect((await get(alice, { from: '2000-01-01T00:00:00Z', interval: 'day' })).status).toBe(400);
    expect((await get(alice, { from: 'yesterday' })).status).toBe(400);
  });
});
