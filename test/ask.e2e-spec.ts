import { AddressInfo } from 'node:net';
import { TestApp, TestUser } from '@app/testing';
import { publish } from './search.fixtures';
import { startFakeAiProvider } from './support/fake-ai-provider';
import { contractTransport } from './support/contract-transport';

// The official client, unchanged (the current contract).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { GitBookAPI } = require('gitbook-api-current');

const KEY = 'sk-ask-canary';

/**
 * Ask in an organization (askInOrganization, streamAskInOrganization) through the current official
 * client: retrieval over what the caller can read, the model's answer citing the passages, and an
 * extractive answer without a model, when it fails, or when it is slow. A restricted space never
 * reaches the model or the answer.
 */
describe('Ask in an organization', () => {
  let fake: Awaited<ReturnType<typeof startFakeAiProvider>>;
  let t: TestApp;
  let bare: TestApp;
  let alice: TestUser, rita: TestUser, mallory: TestUser;
  let org: string;
  let guides: string;
  let secret: string;
  let endpoint: string;
  const transport = contractTransport();

  const api = (user: TestUser, contract = true, base = endpoint) => new GitBookAPI({ endpoint: base, authToken: user.token, ...(contract ? { serviceBinding: transport } : {}) });

  beforeAll(async () => {
    fake = await startFakeAiProvider();
    t = await TestApp.start({ outboundAllowPrivate: true, aiApiUrl: fake.url, aiApiKey: KEY, aiModel: 'fake-model', aiMaxRetries: 0 });
    [alice, rita, mallory] = [await t.user('Alice'), await t.user('Rita'), await t.user('Mallory')];
    org = await t.organization(alice, [[rita, 'read']]);
    await t.organization(mallory, [], 'Elsewhere');
    guides = (await alice.client.must.post<any>(`/v1/orgs/${org}/spaces`, { title: 'Guides' })).body.id;
    await publish(t, guides, [
      { id: 'install', title: 'Install the gizmo', slug: 'install', body: '## Requirements\n\nThe gizmo needs 2 GB of memory.\n\n## Steps\n\nRun the gizmo installer, then restart.' },
      { id: 'billing', title: 'Billing', slug: 'billing', body: 'Invoices are sent monthly.' },
    ]);
    secret = (await alice.client.must.post<any>(`/v1/orgs/${org}/spaces`, { title: 'Roadmap' })).body.id;
    await publish(t, secret, [{ id: 'plans', title: 'Gizmo plans', slug: 'plans', body: 'The gizmo installer gets a zeppelin mode next year.' }]);
    await alice.client.must.patch(`/v1/spaces/${secret}`, { defaultLevel: null });
    await t.app.listen(0, '127.0.0.1');
    endpoint = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await t.close();
    await bare?.close();
    await fake.close();
  });

  const userPrompt = () => fake.requests.at(-1)!.body.messages.find((m) => m.role === 'user')!.content;

  it("answers with the model, from the passages the caller can read, citing them as sources", async () => {
    fake.answerWith(() => 'Run the installer [2]; the gizmo needs 2 GB of memory [1].');
    const res = await api(rita).orgs.askInOrganization(org, { query: 'How do I install the gizmo?' }, { format: 'markdown' });
    expect(res.status).toBe(200);
    expect(res.data.answer.answer).toEqual({ markdown: 'Run the installer [2]; the gizmo needs 2 GB of memory [1].' });
    expect(res.data.answer.sources).toEqual([{ type: 'page', page: 'install', space: guides, revision: expect.any(String), sections: expect.arrayContaining(['requirements']) }]);
    expect(res.data.answer.followupQuestions).toEqual([]);
    // Rita cannot read the roadmap: it reached neither the model nor the answer.
    expect(userPrompt()).toContain('The gizmo needs 2 GB');
    expect(userPrompt()).not.toContain('zeppelin');
    // As a document (the default format).
    const doc = await api(rita).orgs.askInOrganization(org, { query: 'How do I install the gizmo?' });
    expect(doc.data.answer.answer.document.object).toBe('document');
  });

  it('falls back to the passages themselves when the model fails, never an error', async () => {
    fake.fail(500, 1);
    const res = await api(rita).orgs.askInOrganization(org, { query: 'gizmo memory' }, { format: 'markdown' });
    expect(res.status).toBe(200);
    expect(res.data.answer.answer.markdown).toContain('> The gizmo needs 2 GB of memory.');
    expect(res.data.answer.answer.markdown).toContain('**Install the gizmo › Requirements**');
    expect(res.data.answer.sources[0]).toMatchObject({ page: 'install', space: guides });
  });

  it('streams: the passages at once, then the model\'s answer, then done', async () => {
    fake.answerWith(() => 'Invoices come monthly [1].');
    const events: any[] = [];
    for await (const event of api(rita, false).orgs.streamAskInOrganization(org, { query: 'When are invoices sent?', format: 'markdown' })) events.push(event);
    expect(events.map((e) => e.type)).toEqual(['answer', 'answer']);
    expect(events[0].answer.answer.markdown).toContain('> Invoices are sent monthly.');
    expect(events[1].answer).toMatchObject({ answer: { markdown: 'Invoices come monthly [1].' }, sources: [{ page: 'billing' }] });
  });

  it("asks on a site: only the site's spaces in the scope, as a stream", async () => {
    const site = (await alice.client.must.post<any>(`/v1/orgs/${org}/sites`, { title: 'Docs', spaces: [guides] })).body.id;
    const elsewhere = (await alice.client.must.post<any>(`/v1/orgs/${org}/spaces`, { title: 'Elsewhere' })).body.id;
    await publish(t, elsewhere, [{ id: 'gizmo-faq', title: 'Gizmo FAQ', slug: 'faq', body: 'The gizmo installer is blue.' }]);
    fake.answerWith(() => 'Restart after installing [1].');
    const events: any[] = [];
    for await (const event of api(rita, false).orgs.streamAskInSite(org, site, { question: 'gizmo installer', scope: { mode: 'all' } }, { format: 'markdown' })) events.push(event);
    expect(events.at(-1).answer).toMatchObject({ answer: { markdown: 'Restart after installing [1].' } });
    expect(events.at(-1).answer.sources.map((s: any) => s.space)).toEqual([guides]);
    // The space outside the site reached neither the model nor the answer.
    expect(userPrompt()).not.toContain('blue');
    const refused = await rita.client.post<any>(`/v1/orgs/${org}/sites/${site}/ask`, { question: 'gizmo', scope: { mode: 'nonsense' } });
    expect(refused.status).toBe(400);
    expect((await mallory.client.post<any>(`/v1/orgs/${org}/sites/${site}/ask`, { question: 'gizmo', scope: { mode: 'all' } })).status).toBe(404);
  });

  it('refuses what it cannot answer: an empty question, a non-member, an unknown format', async () => {
    expect((await alice.client.post<any>(`/v1/orgs/${org}/ask`, { query: '  ' })).status).toBe(400);
    expect((await alice.client.post<any>(`/v1/orgs/${org}/ask`, {})).status).toBe(400);
    expect((await alice.client.post<any>(`/v1/orgs/${org}/ask?format=html`, { query: 'gizmo' })).status).toBe(400);
    expect((await mallory.client.post<any>(`/v1/orgs/${org}/ask`, { query: 'gizmo' })).status).toBe(404);
    expect((await mallory.client.get<any>(`/v1/orgs/${org}/ask/stream`, { query: 'gizmo' })).status).toBe(404);
    const nothing = await api(alice).orgs.askInOrganization(org, { query: 'quantum entanglement' }, { format: 'markdown' });
    expect(nothing.data.answer).toMatchObject({ answer: { markdown: 'The documentation has nothing on this yet.' }, sources: [] });
  });

  it('answers without a model at all: extractive, in one event', async () => {
    bare = await TestApp.start({ aiApiUrl: undefined, aiModel: undefined });
    const owner = await bare.user('Owner');
    const organization = await bare.organization(owner);
    const space = (await owner.client.must.post<any>(`/v1/orgs/${organization}/spaces`, { title: 'Docs' })).body.id;
    await publish(bare, space, [{ id: 'faq', title: 'FAQ', slug: 'faq', body: 'Reset the gadget by holding its button.' }]);
    await bare.app.listen(0, '127.0.0.1');
    const base = `http://127.0.0.1:${(bare.app.getHttpServer().address() as AddressInfo).port}`;
    const before = fake.requests.length;
    const res = await api(owner, true, base).orgs.askInOrganization(organization, { query: 'How do I reset the gadget?' }, { format: 'markdown' });
    expect(res.data.answer.answer.markdown).toContain('> Reset the gadget by holding its button.');
    const events: any[] = [];
    for await (const event of api(owner, false, base).orgs.streamAskInOrganization(organization, { query: 'reset gadget', format: 'markdown' })) events.push(event);
    expect(events).toHaveLength(1);
    expect(fake.requests.length).toBe(before);
  });
});
