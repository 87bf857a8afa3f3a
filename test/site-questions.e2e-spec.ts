import { AddressInfo } from 'node:net';
import { TestApp, TestUser } from '@app/testing';
import { publish } from './search.fixtures';
import { startFakeAiProvider } from './support/fake-ai-provider';
import { contractTransport } from './support/contract-transport';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { GitBookAPI } = require('gitbook-api-current');

/**
 * What readers asked a site (listSiteQuestions ... listSiteQuestionAnswerSources) through the
 * current official client: every answer streamAskInSite gives is recorded with its question, its
 * sources and an assessment; askings that differ in case and punctuation are one question; readers'
 * ratings (`ask_rate_response`) land on the answer; filters, sorts and cursors; another
 * organization sees nothing.
 */
describe('Site questions and answers', () => {
  let fake: Awaited<ReturnType<typeof startFakeAiProvider>>;
  let t: TestApp;
  let alice: TestUser, mallory: TestUser;
  let org: string, site: string, guides: string;
  let endpoint: string;
  const transport = contractTransport();
  const api = (user: TestUser, contract = true) => new GitBookAPI({ endpoint, authToken: user.token, ...(contract ? { serviceBinding: transport } : {}) });

  const ask = async (question: string, extra: Record<string, unknown> = {}) => {
    const events: any[] = [];
    for await (const event of api(alice, false).orgs.streamAskInSite(org, site, { question, scope: { mode: 'all' }, ...extra }, { format: 'markdown' })) events.push(event);
    return events.at(-1).answer;
  };

  beforeAll(async () => {
    fake = await startFakeAiProvider();
    t = await TestApp.start({ outboundAllowPrivate: true, aiApiUrl: fake.url, aiApiKey: 'sk-q', aiModel: 'fake-model', aiMaxRetries: 0 });
    [alice, mallory] = [await t.user('Alice'), await t.user('Mallory')];
    org = await t.organization(alice);
    await t.organization(mallory, [], 'Elsewhere');
    guides = (await alice.client.must.post<any>(`/v1/orgs/${org}/spaces`, { title: 'Guides' })).body.id;
    await publish(t, guides, [
      { id: 'install', title: 'Install the gizmo', slug: 'install', body: '## Requirements\n\nThe gizmo needs 2 GB of memory.\n\n## Steps\n\nRun the gizmo installer, then restart.' },
      { id: 'errors', title: 'Gizmo errors', slug: 'errors', body: 'Error E42 means the gizmo installer lacks memory.' },
    ]);
    site = (await alice.client.must.post<any>(`/v1/orgs/${org}/sites`, { title: 'Docs', spaces: [guides] })).body.id;
    await alice.client.must.post(`/v1/orgs/${org}/sites/${site}/publish`);
    await t.app.listen(0, '127.0.0.1');
    endpoint = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;

    fake.answerWith(() => 'Run the installer [2]; it needs 2 GB [1].');
    await ask('How do I install the gizmo?', { session: { visitorId: 'v1', sessionId: 's1' } });
    await ask('how do i install the GIZMO');
    fake.fail(500, 1);
    await ask('Why does the gizmo installer fail with error E42?');
    await ask('zebra quantum flux');
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('records each answer with its question: one question per wording, its stats, its type', async () => {
    const list = (await api(alice).orgs.listSiteQuestions(org, site)).data;
    expect(list.count).toBe(3);
    const install = list.items.find((q: any) => q.question === 'How do I install the gizmo?');
    expect(install).toMatchObject({ object: 'site-question', type: 'how-to', stats: { total: 1, answers: 2, answered: { yes: 2, partially: 0, no: 0 }, feedback: { unrated: 2 } } });
    expect(install.stats.weeklyPulse).toHaveLength(13);
    expect(install.stats.weeklyPulse[12]).toBe(2);
    expect(install.stats.channelTypes).toEqual({ api: 2 });
    const trouble = list.items.find((q: any) => q.question.startsWith('Why does'));
    // The model failed: an extractive answer, partly answering.
    expect(trouble).toMatchObject({ type: 'troubleshooting', stats: { answered: { partially: 1 }, relevance: { relevant: 1 } } });
    const nonsense = list.items.find((q: any) => q.question === 'zebra quantum flux');
    expect(nonsense.stats).toMatchObject({ answered: { no: 1 }, relevance: { 'off-topic': 1 } });

    const one = (await api(alice).orgs.getSiteQuestionById(org, site, install.id)).data;
    expect(one).toMatchObject({ id: install.id, stats: { answers: 2 } });
    expect(one.urls.location).toContain(`/sites/${site}/questions/${install.id}`);
  });

  it('filters, sorts and pages questions', async () => {
    const unanswered = (await api(alice).orgs.listSiteQuestions(org, site, { answered: ['no'] })).data;
    expect(unanswered.items.map((q: any) => q.question)).toEqual(['zebra quantum flux']);
    expect((await api(alice).orgs.listSiteQuestions(org, site, { type: 'troubleshooting' })).data.count).toBe(1);
    const byAnswers = (await api(alice).orgs.listSiteQuestions(org, site, { sort: 'stats.answers', order: 'desc', limit: 1 })).data;
    expect(byAnswers.items[0].question).toBe('How do I install the gizmo?');
    const seen = [byAnswers.items[0].id];
    let next = byAnswers.next?.page;
    while (next) {
      const page = (await api(alice).orgs.listSiteQuestions(org, site, { sort: 'stats.answers', order: 'desc', limit: 1, page: next })).data;
      seen.push(...page.items.map((q: any) => q.id));
      next = page.next?.page;
    }
    expect(new Set(seen).size).toBe(3);
    const future = new Date(Date.now() + 3_600_000).toISOString();
    expect((await api(alice).orgs.listSiteQuestions(org, site, { from: future })).data.count).toBe(0);
    expect((await alice.client.get<any>(`/v1/orgs/${org}/sites/${site}/questions`, { answered: 'maybe' })).status).toBe(400);
    expect((await alice.client.get<any>(`/v1/orgs/${org}/sites/${site}/questions`, { page: 'forged' })).status).toBe(400);
  });

  it("lists answers with their response, thread and sources, and the question's sources", async () => {
    const answers = (await api(alice).orgs.listSiteQuestionAnswers(org, site, { answered: ['yes'] })).data;
    expect(answers.count).toBe(2);
    const first = answers.items.find((a: any) => a.input.raw === 'How do I install the gizmo?');
    expect(first).toMatchObject({ object: 'site-question-answer', language: 'en', answered: 'yes', relevance: 'relevant', channel: { type: 'api' }, session: { visitorId: 'v1', sessionId: 's1' }, input: { text: 'how do i install the gizmo' } });
    expect(first.thread).toEqual({ id: first.id, previous: '' });

    const full = (await api(alice).orgs.getSiteQuestionAnswerById(org, site, first.id)).data;
    expect(full.response).toMatchObject({ role: 'assistant', response: { id: first.responseId } });
    expect(JSON.stringify(full.response.steps[0].content)).toContain('Run the installer');
    const thread = (await api(alice).orgs.getSiteQuestionAnswerThreadById(org, site, first.id)).data;
    expect(thread.map((a: any) => a.id)).toEqual([first.id]);

    const sources = (await api(alice).orgs.listSiteQuestionAnswerSources(org, site, first.id)).data;
    expect(sources.items).toEqual([expect.objectContaining({ object: 'site-question-answer-source', type: 'page', page: 'install', space: guides, title: 'Install the gizmo', weight: 1 })]);
    const questionSources = (await api(alice).orgs.listSiteQuestionSources(org, site, first.question.id)).data;
    expect(questionSources.items).toEqual([expect.objectContaining({ page: 'install', weight: 2 })]);

    const stats = (await api(alice).orgs.getSiteQuestionStats(org, site)).data;
    expect(stats).toMatchObject({ total: 3, answers: 4, answered: { yes: 2, partially: 1, no: 1 }, types: { 'how-to': 2, troubleshooting: 1 } });
  });

  it("keeps readers' ratings of answers (ask_rate_response) with the answer", async () => {
    const [answer] = (await api(alice).orgs.listSiteQuestionAnswers(org, site, { answered: ['no'] })).data.items;
    const tracked = await t.client().post<any>(`/v1/orgs/${org}/sites/${site}/insights/events`, {
      events: [{ type: 'ask_rate_response', query: 'zebra quantum flux', rating: -1, responseId: answer.responseId, session: { visitorId: 'v', sessionId: 's' }, location: { url: 'http://docs.test/' } }],
    });
    expect(tracked.status).toBe(204);
    const rated = (await api(alice).orgs.getSiteQuestionAnswerById(org, site, answer.id)).data;
    expect(rated.feedback).toEqual({ rating: -1 });
    expect((await api(alice).orgs.getSiteQuestionStats(org, site)).data.feedback).toEqual({ positive: 0, negative: 1, unrated: 3 });
  });

  it('shows nothing to another organization, and 404s unknown ids', async () => {
    const [question] = (await api(alice).orgs.listSiteQuestions(org, site)).data.items;
    expect((await mallory.client.get<any>(`/v1/orgs/${org}/sites/${site}/questions`)).status).toBe(404);
    expect((await mallory.client.get<any>(`/v1/orgs/${org}/sites/${site}/questions/${question.id}`)).status).toBe(404);
    expect((await mallory.client.get<any>(`/v1/orgs/${org}/sites/${site}/question-stats`)).status).toBe(404);
    expect((await alice.client.get<any>(`/v1/orgs/${org}/sites/${site}/questions/nope`)).status).toBe(404);
    expect((await alice.client.get<any>(`/v1/orgs/${org}/sites/${site}/answers/nope/thread`)).status).toBe(404);
  });
});
