import { AddressInfo } from 'node:net';
import { TestApp, TestUser } from '@app/testing';
import { publish } from './search.fixtures';
import { startFakeAiProvider } from './support/fake-ai-provider';
import { contractTransport } from './support/contract-transport';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { GitBookAPI } = require('gitbook-api-current');

/**
 * streamAIResponseInSite through the current official client: GitBook's AI response events (start,
 * the search tool call, the answer's blocks, finish with a response id), a follow-up continuing the
 * thread and searched with the question it follows, the answers recorded in one thread; refusals.
 */
describe("A site's AI response stream", () => {
  let fake: Awaited<ReturnType<typeof startFakeAiProvider>>;
  let t: TestApp;
  let alice: TestUser, mallory: TestUser;
  let org: string, site: string, guides: string;
  let endpoint: string;
  const client = (user: TestUser, contract = false) => new GitBookAPI({ endpoint, authToken: user.token, ...(contract ? { serviceBinding: contractTransport() } : {}) });
  const respond = async (body: object) => {
    const events: any[] = [];
    for await (const event of client(alice).orgs.streamAiResponseInSite(org, site, body)) events.push(event);
    return events;
  };
  const userPrompt = () => fake.requests.at(-1)!.body.messages.find((m) => m.role === 'user')!.content;

  beforeAll(async () => {
    fake = await startFakeAiProvider();
    t = await TestApp.start({ outboundAllowPrivate: true, aiApiUrl: fake.url, aiApiKey: 'sk-s', aiModel: 'fake-model', aiMaxRetries: 0 });
    [alice, mallory] = [await t.user('Alice'), await t.user('Mallory')];
    org = await t.organization(alice);
    await t.organization(mallory, [], 'Elsewhere');
    guides = (await alice.client.must.post<any>(`/v1/orgs/${org}/spaces`, { title: 'Guides' })).body.id;
    await publish(t, guides, [
      { id: 'install', title: 'Install the gizmo', slug: 'install', body: '## Linux\n\nOn Linux, run the gizmo installer with sudo.\n\n## Windows\n\nOn Windows, run setup.exe.' },
      { id: 'billing', title: 'Billing', slug: 'billing', body: 'Invoices are sent monthly.' },
    ]);
    site = (await alice.client.must.post<any>(`/v1/orgs/${org}/sites`, { title: 'Docs', spaces: [guides] })).body.id;
    await t.app.listen(0, '127.0.0.1');
    endpoint = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('streams the search, the answer and a response id; a follow-up continues the thread', async () => {
    fake.answerWith(() => 'Run the gizmo installer [1].\n\nThen restart.');
    const first = await respond({ input: [{ role: 'user', content: 'How do I install the gizmo?' }], channel: { type: 'site' }, session: { visitorId: 'v', sessionId: 's' } });
    expect(first.map((e) => e.type)).toEqual(['response_start', 'response_step_start', 'response_tool_call', 'response_document', 'response_document', 'response_finish']);
    const messageId = first[0].messageId;
    expect(first.every((e) => e.messageId === messageId)).toBe(true);
    expect(first[2].toolCall).toMatchObject({ tool: 'search', query: 'How do I install the gizmo?', results: [{ type: 'page', spaceId: guides, pageId: 'install', title: 'Install the gizmo' }] });
    expect(JSON.stringify(first[3].blocks)).toContain('Run the gizmo installer');
    const responseId = first.at(-1).response.id;
    expect(first.at(-1).responseId).toBe(responseId);

    // "and on Windows?" alone finds little: it is searched with the question it follows.
    fake.answerWith(() => 'Run setup.exe [1].');
    const second = await respond({ previousResponseId: responseId, input: [{ role: 'user', content: 'How do I install the gizmo?' }, { role: 'assistant', content: 'Run the installer.' }, { role: 'user', content: 'and on Windows?' }] });
    expect(second.at(-1).response).toEqual({ id: expect.any(String), previous: responseId });
    expect(userPrompt()).toContain('setup.exe');

    const answers = (await client(alice, true).orgs.listSiteQuestionAnswers(org, site)).data.items;
    // One millisecond on the test's clock: told apart by their response ids, not their order.
    const earlier = answers.find((a: any) => a.responseId === responseId);
    const later = answers.find((a: any) => a.responseId !== responseId);
    expect(earlier).toMatchObject({ responseId, channel: { type: 'site' }, session: { visitorId: 'v', sessionId: 's' } });
    expect(later.thread).toEqual({ id: earlier.id, previous: earlier.id });
    const thread = (await client(alice, true).orgs.getSiteQuestionAnswerThreadById(org, site, later.id)).data;
    expect(thread.map((a: any) => a.id)).toEqual([earlier.id, later.id]);
    expect(thread[0].response.id).toBe(messageId);
  });

  it('refuses what it cannot answer', async () => {
    const post = (user: TestUser, body: object) => user.client.post<any>(`/v1/orgs/${org}/sites/${site}/ai/response`, body);
    expect((await post(alice, { input: [] })).status).toBe(400);
    expect((await post(alice, { input: [{ role: 'robot', content: 'hi' }] })).status).toBe(400);
    expect((await post(alice, { input: [{ role: 'user', content: 'hi' }], channel: { type: 'carrier-pigeon' } })).status).toBe(400);
    expect((await post(alice, { input: [{ role: 'user', content: 'gizmo' }], previousResponseId: 'unknown' })).status).toBe(400);
    expect((await post(mallory, { input: [{ role: 'user', content: 'gizmo' }] })).status).toBe(404);
  });
});
