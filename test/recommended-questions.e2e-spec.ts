import { AddressInfo } from 'node:net';
import { TestApp, TestUser } from '@app/testing';
import { publish } from './search.fixtures';
import { startFakeAiProvider } from './support/fake-ai-provider';
import { contractTransport } from './support/contract-transport';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { GitBookAPI } = require('gitbook-api-current');

/**
 * Recommended questions (getRecommendedQuestionsInOrganization, streamRecommendedQuestionsInOrganization,
 * streamRecommendedQuestionsInSite) through the current official client: phrased by the model from
 * the titles of pages the caller can read, made from the titles without one, the site's popular
 * questions first, the site's assistant settings applied.
 */
describe('Recommended questions', () => {
  let fake: Awaited<ReturnType<typeof startFakeAiProvider>>;
  let t: TestApp;
  let bare: TestApp;
  let alice: TestUser, rita: TestUser, mallory: TestUser;
  let org: string, site: string;
  let endpoint: string;
  const client = (user: TestUser, contract = true, base = endpoint) => new GitBookAPI({ endpoint: base, authToken: user.token, ...(contract ? { serviceBinding: contractTransport() } : {}) });
  const drain = async (events: AsyncIterable<{ question: string }>) => {
    const out: string[] = [];
    for await (const event of events) out.push(event.question);
    return out;
  };
  const userPrompt = () => fake.requests.at(-1)!.body.messages.find((m) => m.role === 'user')!.content;

  beforeAll(async () => {
    fake = await startFakeAiProvider();
    t = await TestApp.start({ outboundAllowPrivate: true, aiApiUrl: fake.url, aiApiKey: 'sk-r', aiModel: 'fake-model', aiMaxRetries: 0 });
    [alice, rita, mallory] = [await t.user('Alice'), await t.user('Rita'), await t.user('Mallory')];
    org = await t.organization(alice, [[rita, 'read']]);
    await t.organization(mallory, [], 'Elsewhere');
    const guides = (await alice.client.must.post<any>(`/v1/orgs/${org}/spaces`, { title: 'Guides' })).body.id;
    await publish(t, guides, [
      { id: 'install', title: 'Install the gizmo', slug: 'install', body: 'Run the gizmo installer.' },
      { id: 'webhooks', title: 'Webhooks', slug: 'webhooks', body: 'The gizmo sends webhooks.' },
    ]);
    const secret = (await alice.client.must.post<any>(`/v1/orgs/${org}/spaces`, { title: 'Roadmap' })).body.id;
    await publish(t, secret, [{ id: 'zeppelin', title: 'Zeppelin mode', slug: 'zeppelin', body: 'Next year.' }]);
    await alice.client.must.patch(`/v1/spaces/${secret}`, { defaultLevel: null });
    site = (await alice.client.must.post<any>(`/v1/orgs/${org}/sites`, { title: 'Docs', spaces: [guides] })).body.id;
    await t.app.listen(0, '127.0.0.1');
    endpoint = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await t.close();
    await bare?.close();
    await fake.close();
  });

  it("asks the model to phrase questions about the pages the caller can read", async () => {
    fake.answerWith(() => JSON.stringify({ questions: ['How do I install the gizmo?', 'What do webhooks send?'] }));
    const res = await client(rita).orgs.getRecommendedQuestionsInOrganization(org);
    expect(res.data).toEqual({ questions: ['How do I install the gizmo?', 'What do webhooks send?'] });
    expect(userPrompt()).toContain('- Install the gizmo');
    // Rita cannot read the roadmap: its titles never reach the model.
    expect(userPrompt()).not.toContain('Zeppelin');
    const streamed = await drain(client(rita, false).orgs.streamRecommendedQuestionsInOrganization(org));
    expect(streamed).toEqual(['How do I install the gizmo?', 'What do webhooks send?']);
    expect((await mallory.client.get<any>(`/v1/orgs/${org}/ask/questions`)).status).toBe(404);
  });

  it("on a site, puts the questions its readers asked most first", async () => {
    fake.answerWith(() => 'Run the installer [1].');
    for (let i = 0; i < 3; i++) {
      for await (const _ of client(alice, false).orgs.streamAskInSite(org, site, { question: 'Where is the gizmo installer?', scope: { mode: 'all' } }, { format: 'markdown' })) void _;
    }
    fake.answerWith(() => JSON.stringify({ questions: ['What do webhooks send?'] }));
    const questions = await drain(client(rita, false).orgs.streamRecommendedQuestionsInSite(org, site));
    expect(questions).toEqual(['Where is the gizmo installer?', 'What do webhooks send?']);
    // A site space the site does not have is named, not ignored.
    const unknown = await rita.client.get<any>(`/v1/orgs/${org}/sites/${site}/ask/questions?siteSpaceId=nope`);
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({ error: { code: 400, message: 'siteSpaceId: the site has no site space nope' } });

    await client(alice).orgs.updateSiteAgentSettingsById(org, site, {
      scans: { topics: 'auto' },
      findings: { changeRequests: 'never' },
      editing: { customInstructions: { object: 'document', data: {}, nodes: [] } },
      assistant: { enabled: false },
    } as any);
    expect((await rita.client.get<any>(`/v1/orgs/${org}/sites/${site}/ask/questions`)).status).toBe(403);
    expect((await mallory.client.get<any>(`/v1/orgs/${org}/sites/${site}/ask/questions`)).status).toBe(404);
  });

  it('makes questions from the titles without a model', async () => {
    bare = await TestApp.start({ aiApiUrl: undefined, aiModel: undefined });
    const owner = await bare.user('Owner');
    const organization = await bare.organization(owner);
    const space = (await owner.client.must.post<any>(`/v1/orgs/${organization}/spaces`, { title: 'Docs' })).body.id;
    await publish(bare, space, [
      { id: 'intro', title: 'Introduction', slug: 'intro', body: 'Hello.' },
      { id: 'setup', title: 'Set up SSO', slug: 'sso', body: 'Use SAML.' },
      { id: 'billing', title: 'Billing', slug: 'billing', body: 'Monthly.' },
    ]);
    await bare.app.listen(0, '127.0.0.1');
    const base = `http://127.0.0.1:${(bare.app.getHttpServer().address() as AddressInfo).port}`;
    const res = await client(owner, true, base).orgs.getRecommendedQuestionsInOrganization(organization);
    expect(res.data.questions).toEqual(expect.arrayContaining(['How do I set up SSO?', 'What is billing?']));
    expect(res.data.questions).toHaveLength(2);
  });
});
