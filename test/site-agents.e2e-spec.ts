import { AddressInfo } from 'node:net';
import { TestApp, TestUser } from '@app/testing';
import { publish } from './search.fixtures';
import { startFakeAiProvider } from './support/fake-ai-provider';
import { contractTransport } from './support/contract-transport';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { GitBookAPI } = require('gitbook-api-current');

/**
 * A site's agent settings (getSiteAgentSettingsById, updateSiteAgentSettingsById) and AI agents'
 * reports (submitAgentFeedbackToSite) through the current official client; the assistant settings
 * steer the site's Ask: off (403), kept to some site spaces, a tone and instructions for the model.
 */
describe('Site agent settings and agent feedback', () => {
  let fake: Awaited<ReturnType<typeof startFakeAiProvider>>;
  let t: TestApp;
  let alice: TestUser, rita: TestUser, mallory: TestUser;
  let org: string, site: string, guides: string, api: string;
  let siteSpaces: Array<{ id: string; space: { id: string } }>;
  let endpoint: string;
  const transport = contractTransport();
  const client = (user: TestUser, contract = true) => new GitBookAPI({ endpoint, authToken: user.token, ...(contract ? { serviceBinding: transport } : {}) });
  const settingsOf = (assistant?: object) => ({
    scans: { topics: 'never' },
    findings: { changeRequests: 'auto-fixable' },
    editing: { customInstructions: { object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Use British spelling.', marks: [] }] }] }] } },
    ...(assistant ? { assistant } : {}),
  });
  const ask = async (question: string) => {
    const events: any[] = [];
    for await (const event of client(rita, false).orgs.streamAskInSite(org, site, { question, scope: { mode: 'all' } }, { format: 'markdown' })) events.push(event);
    return events.at(-1).answer;
  };
  const systemPrompt = () => fake.requests.at(-1)!.body.messages.find((m) => m.role === 'system')!.content;
  const userPrompt = () => fake.requests.at(-1)!.body.messages.find((m) => m.role === 'user')!.content;

  beforeAll(async () => {
    fake = await startFakeAiProvider();
    t = await TestApp.start({ outboundAllowPrivate: true, aiApiUrl: fake.url, aiApiKey: 'sk-a', aiModel: 'fake-model', aiMaxRetries: 0 });
    [alice, rita, mallory] = [await t.user('Alice'), await t.user('Rita'), await t.user('Mallory')];
    org = await t.organization(alice, [[rita, 'read']]);
    await t.organization(mallory, [], 'Elsewhere');
    guides = (await alice.client.must.post<any>(`/v1/orgs/${org}/spaces`, { title: 'Guides' })).body.id;
    await publish(t, guides, [{ id: 'install', title: 'Install the gizmo', slug: 'install', body: 'Run the gizmo installer.' }]);
    api = (await alice.client.must.post<any>(`/v1/orgs/${org}/spaces`, { title: 'API' })).body.id;
    await publish(t, api, [{ id: 'endpoints', title: 'Gizmo endpoints', slug: 'endpoints', body: 'The gizmo API lists installers.' }]);
    site = (await alice.client.must.post<any>(`/v1/orgs/${org}/sites`, { title: 'Docs', spaces: [guides, api] })).body.id;
    siteSpaces = (await alice.client.get<any>(`/v1/orgs/${org}/sites/${site}/site-spaces`)).body.items;
    await t.app.listen(0, '127.0.0.1');
    endpoint = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('shows the defaults until changed, then what was set, with who and when', async () => {
    const defaults = (await client(rita).orgs.getSiteAgentSettingsById(org, site)).data;
    expect(defaults).toMatchObject({ object: 'site-agent-settings', scans: { topics: 'auto' }, findings: { changeRequests: 'never' }, editing: { customInstructions: { object: 'document', nodes: [] } } });
    expect(defaults.assistant).toEqual({ enabled: true, tone: 'neutral', instructions: '', siteSpaces: null });
    expect(defaults.updatedAt).toBeUndefined();

    const updated = (await client(alice).orgs.updateSiteAgentSettingsById(org, site, settingsOf())).data;
    expect(updated).toMatchObject({ scans: { topics: 'never' }, findings: { changeRequests: 'auto-fixable' }, updatedBy: alice.id });
    expect(JSON.stringify(updated.editing)).toContain('British spelling');
    expect((await client(rita).orgs.getSiteAgentSettingsById(org, site)).data.updatedAt).toBe(updated.updatedAt);
  });

  it('refuses bad settings, readers and strangers', async () => {
    const put = (user: TestUser, body: unknown) => user.client.put<any>(`/v1/orgs/${org}/sites/${site}/agent-settings`, body);
    expect((await put(alice, { ...settingsOf(), scans: { topics: 'sometimes' } })).status).toBe(400);
    expect((await put(alice, { scans: { topics: 'auto' } })).status).toBe(400);
    expect((await put(alice, { ...settingsOf(), editing: { customInstructions: 'text' } })).status).toBe(400);
    expect((await put(alice, settingsOf({ tone: 'sarcastic' }))).status).toBe(400);
    expect((await put(alice, settingsOf({ siteSpaces: 'all' }))).status).toBe(400);
    // Limited to a site space this site does not have: refused, not a limit that draws on nothing.
    const stranger = await put(alice, settingsOf({ siteSpaces: [siteSpaces[0].id, 'sitesp_nowhere'] }));
    expect(stranger.status).toBe(400);
    expect(stranger.body.error.message).toBe('assistant.siteSpaces: not site spaces of this site: "sitesp_nowhere"');
    expect((await put(rita, settingsOf())).status).toBe(403);
    expect((await put(mallory, settingsOf())).status).toBe(404);
    expect((await mallory.client.get<any>(`/v1/orgs/${org}/sites/${site}/agent-settings`)).status).toBe(404);
  });

  it("steers the site's Ask: its site spaces, its tone and instructions, and off", async () => {
    fake.answerWith(() => 'Use the installer [1].');
    await ask('gizmo');
    expect(userPrompt()).toContain('Run the gizmo installer');
    expect(userPrompt()).toContain('The gizmo API lists installers');

    const apiSiteSpace = siteSpaces.find((s) => s.space.id === api)!.id;
    await client(alice).orgs.updateSiteAgentSettingsById(org, site, settingsOf({ siteSpaces: [apiSiteSpace], tone: 'concise', instructions: 'Mention the support page.' }));
    const answer = await ask('gizmo');
    expect(answer.sources.map((s: any) => s.space)).toEqual([api]);
    expect(userPrompt()).not.toContain('Run the gizmo installer');
    expect(systemPrompt()).toContain('Be as short as the answer allows. Mention the support page.');

    // Fields left out keep their values; `enabled: false` turns Ask off.
    const off = (await client(alice).orgs.updateSiteAgentSettingsById(org, site, settingsOf({ enabled: false }))).data;
    expect(off.assistant).toEqual({ enabled: false, tone: 'concise', instructions: 'Mention the support page.', siteSpaces: [apiSiteSpace] });
    const refused = await rita.client.post<any>(`/v1/orgs/${org}/sites/${site}/ask`, { question: 'gizmo', scope: { mode: 'all' } });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toContain('turned off');
    expect((await mallory.client.post<any>(`/v1/orgs/${org}/sites/${site}/ask`, { question: 'gizmo', scope: { mode: 'all' } })).status).toBe(404);
    await client(alice).orgs.updateSiteAgentSettingsById(org, site, settingsOf({ enabled: true, siteSpaces: null, tone: 'neutral', instructions: '' }));
  });

  it("keeps AI agents' reports about the site and tells them what happens next", async () => {
    const res = await client(rita).orgs.submitAgentFeedbackToSite(org, site, {
      reportedBy: { model: 'claude-test', userAgent: 'agent/1.0', onDemand: true },
      subject: { kind: 'documentation', url: 'https://docs.example.com/install' },
      feedback: { category: 'documentation', severity: 'high', summary: 'The install page does not say which OS versions work.', goal: 'Install the gizmo on Linux' },
    });
    expect(res.status).toBe(201);
    expect(res.data).toEqual({ id: expect.any(String), result: expect.stringContaining('recorded') });
    const tool = await client(rita).orgs.submitAgentFeedbackToSite(org, site, { subject: { kind: 'mcp-tool', toolName: 'searchDocumentation' }, feedback: { category: 'reliability', summary: 'Empty results' } });
    expect(tool.status).toBe(201);

    const post = (user: TestUser, body: unknown) => user.client.post<any>(`/v1/orgs/${org}/sites/${site}/agents/feedback`, body);
    expect((await post(rita, { subject: { kind: 'generic' }, feedback: { category: 'usability', summary: 'x', password: 'hunter2' } })).status).toBe(400);
    expect((await post(rita, { subject: { kind: 'telepathy' }, feedback: { category: 'usability', summary: 'x' } })).status).toBe(400);
    expect((await post(rita, { subject: { kind: 'generic' }, feedback: { category: 'usability', summary: '' } })).status).toBe(400);
    expect((await post(rita, { subject: { kind: 'api-endpoint', method: 'FETCH', path: '/v1/x' }, feedback: { category: 'usability', summary: 'x' } })).status).toBe(400);
    expect((await post(mallory, { subject: { kind: 'generic' }, feedback: { category: 'usability', summary: 'x' } })).status).toBe(404);
  });
});
