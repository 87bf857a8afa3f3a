import { AddressInfo } from 'node:net';
import { TestApp, TestUser } from '@app/testing';
import { contractTransport } from './support/contract-transport';
import { TestWorker } from '@app/testing/test-worker';
import { space } from './spaces.fixtures';
import { startFakeAiProvider } from './support/fake-ai-provider';
import { until } from './support/worker-process';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { GitBookAPI } = require('@gitbook/api');

const conversation = (id: string, ...userMessages: string[]) => ({
  id,
  subject: `Ticket ${id}`,
  metadata: { url: `https://support.example.com/t/${id}`, attributes: { plan: 'pro' }, createdAt: '2026-01-10T09:00:00.000Z' },
  parts: [
    ...userMessages.map((body) => ({ type: 'message', role: 'user', body })),
    { type: 'message', role: 'team-member', body: 'Thanks, we are looking into it.' },
  ],
});

describe('conversations and insights (built-in analysis, no model)', () => {
  let t: TestApp;
  let worker: TestWorker;
  let alice: TestUser; // admin
  let editor: TestUser;
  let reader: TestUser;
  let guest: TestUser;
  let mallory: TestUser;
  let org: string;

  beforeAll(async () => {
    t = await TestApp.start({ aiApiUrl: undefined, aiModel: undefined });
    worker = await TestWorker.start(t);
    [alice, editor, reader, guest, mallory] = [await t.user('Alice'), await t.user('Eddie'), await t.user('Rita'), await t.user('Gus'), await t.user('Mallory')];
    org = await t.organization(alice, [
      [editor, 'edit'],
      [reader, 'read'],
      [guest, null],
    ]);
    await t.organization(mallory, [], 'Elsewhere');
  });
  afterAll(async () => {
    await worker.close();
    await t.close();
  });

  const base = () => `/v1/orgs/${org}`;
  const analysed = () =>
    until('the analysis', async () => Number((await t.dataSource.query(`SELECT count(*) FROM conversations WHERE organization_id = $1 AND processed_at IS NULL`, [org]))[0].count) === 0, 30000);

  it('ingests one conversation or an array, idempotently, and analyses them into issues and clusters', async () => {
    expect(
      (await editor.client.post(`${base()}/conversations`, conversation('c1', 'How do I reset my password? The reset email never arrives.'))).status,
    ).toBe(204);
    const many = [
      conversation('c2', 'I cannot reset my password, the reset link is broken.'),
      conversation('c3', 'Where is the API rate limit documented? I keep getting 429 errors.'),
      conversation('c4', 'The password reset email does not arrive, how do I reset it?'),
      conversation('c5', 'Great product, thank you!'),
    ];
    expect((await editor.client.post(`${base()}/conversations`, many)).status).toBe(204);
    expect((await editor.client.post(`${base()}/conversations`, many)).status).toBe(204); // again: no duplicates
    await analysed();

    const list = await reader.client.get<any>(`${base()}/conversations`);
    expect(list.body.count).toBe(5);
    const c1 = list.body.items.find((c: { subject: string }) => c.subject === 'Ticket c1');
    expect(c1).toMatchObject({ object: 'conversation', source: `integration:api:${editor.id}`, processedAt: expect.any(String), urls: { source: 'https://support.example.com/t/c1' } });
    expect((await reader.client.get<any>(`${base()}/conversations?source=${encodeURIComponent(`integration:api:${editor.id}`)}&limit=2`)).body.items).toHaveLength(2);
    expect((await reader.client.get<any>(`${base()}/conversations?source=email`)).body.count).toBe(0);
    const read = (await reader.client.get<any>(`${base()}/conversations/${c1.id}`)).body;
    expect(read.conversation.id).toBe(c1.id);
    expect(read.parts[0]).toEqual({ type: 'message', role: 'user', body: 'How do I reset my password? The reset email never arrives.' });
    expect(read.metadata.attributes).toEqual({ plan: 'pro' });

    const issues = (await reader.client.get<any>(`${base()}/conversations-issues?limit=100`)).body.items.map((item: any) => ({ ...item.issue, with: item.conversation.id }));
    expect(issues.every((i: { conversation: string; with: string }) => i.conversation === i.with)).toBe(true);
    expect(issues.length).toBeGreaterThanOrEqual(4);
    expect(issues.some((i: { conversation: string }) => i.conversation === c1.id)).toBe(true);
    const c5 = list.body.items.find((c: { subject: string }) => c.subject === 'Ticket c5');
    expect(issues.filter((i: { conversation: string }) => i.conversation === c5.id)).toEqual([]);

    const clusters = (await reader.client.get<any>(`${base()}/conversations-clusters?orderBy=issues`)).body.items;
    const password = clusters[0];
    expect(password.label.toLowerCase()).toMatch(/password|reset/);
    expect(password.stats).toMatchObject({ conversations: 3, tasksTotal: 0 });
    expect(password.stats.issues).toBeGreaterThanOrEqual(3);
    expect(password.sources).toEqual({ [`integration:api:${editor.id}`]: password.stats.issues });
    expect(password.weeklyPulse).toHaveLength(13);
    const rate = clusters.find((c: { id: string; label: string }) => c.id !== password.id && /rate|limit|429/i.test(c.label));
    expect(rate).toBeDefined();
    const inCluster = (await reader.client.get<any>(`${base()}/conversations-issues?cluster=${password.id}`)).body.items.map((item: any) => item.issue);
    expect(new Set(inCluster.map((i: { conversation: string }) => i.conversation)).size).toBe(3);
    expect((await reader.client.get<any>(`${base()}/conversations-issues/${inCluster[0].id}`)).body.issue.cluster).toBe(password.id);
    expect((await reader.client.get<any>(`${base()}/conversations-clusters/${password.id}`)).body.id).toBe(password.id);
  });

  it('an updated conversation is analysed again; its old issues go', async () => {
    await editor.client.must.post(`${base()}/conversations`, conversation('u1', 'How do I export a PDF of my space?'));
    await analysed();
    const [row] = await t.dataSource.query(`SELECT id FROM conversations WHERE organization_id = $1 AND external_id = 'u1'`, [org]);
    const before = (await reader.client.get<any>(`${base()}/conversations-issues?conversation=${row.id}`)).body.items;
    expect(before.map((i: { issue: { title: string } }) => i.issue.title)).toEqual(['How do I export a PDF of my space?']);
    await editor.client.must.post(`${base()}/conversations`, conversation('u1', 'Why does the search not find my pages?'));
    await analysed();
    const after = (await reader.client.get<any>(`${base()}/conversations-issues?conversation=${row.id}`)).body.items;
    expect(after.map((i: { issue: { title: string } }) => i.issue.title)).toEqual(['Why does the search not find my pages?']);
  });

  it('change requests name a cluster; they count as its tasks and the lists filter by it', async () => {
    const cluster = (await reader.client.get<any>(`${base()}/conversations-clusters?orderBy=issues`)).body.items[0];
    const spaceId = await space(alice, org);
    const cr = await alice.client.post<any>(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Document password reset', conversationsIssuesCluster: cluster.id });
    expect(cr.status).toBe(201);
    expect(cr.body.conversationsIssuesCluster).toBe(cluster.id);
    expect((await alice.client.post<any>(`/v1/spaces/${spaceId}/change-requests`, { conversationsIssuesCluster: 'nope' })).status).toBe(400);
    const stats = (await reader.client.get<any>(`${base()}/conversations-clusters/${cluster.id}`)).body.stats;
    expect(stats).toMatchObject({ tasksTotal: 1, tasksBacklog: 1, tasksStarted: 0 });
    const byTasks = (await reader.client.get<any>(`${base()}/conversations-clusters?orderBy=tasksTotal&limit=1`)).body;
    expect(byTasks.items.map((c: { id: string }) => c.id)).toEqual([cluster.id]);
    const rest = (await reader.client.get<any>(`${base()}/conversations-clusters?orderBy=tasksTotal&limit=100&page=${byTasks.next.page}`)).body.items;
    expect(rest.map((c: { id: string }) => c.id)).not.toContain(cluster.id);
    expect(rest.length + 1).toBe(byTasks.count);
    const ascending = (await reader.client.get<any>(`${base()}/conversations-clusters?orderBy=tasksBacklog&order=asc&limit=100`)).body.items;
    expect(ascending[ascending.length - 1].id).toBe(cluster.id);
    const named = await alice.client.get<any>(`/v1/spaces/${spaceId}/change-requests?status=draft&conversationsIssuesCluster=${cluster.id}`);
    expect(named.body.items.map((c: { id: string }) => c.id)).toEqual([cr.body.id]);
  });

  it('validates, authorizes and isolates', async () => {
    for (const body of [
      [],
      { parts: [] },
      { id: '', parts: [] },
      { id: 'x'.repeat(256), parts: [] },
      { id: 'a', parts: [{ type: 'note', role: 'user', body: 'x' }] },
      { id: 'a', parts: [{ type: 'message', role: 'bot', body: 'x' }] },
      { id: 'a', parts: [{ type: 'message', role: 'user', body: 'x'.repeat(20_001) }] },
      { id: 'a', parts: [], extra: true },
      [{ id: 'a', parts: [] }, { id: 'a', parts: [] }],
      Array.from({ length: 101 }, (_, i) => ({ id: `b${i}`, parts: [] })),
    ]) {
      const res = await editor.client.post<any>(`${base()}/conversations`, body);
      expect([res.status, JSON.stringify(body).slice(0, 60)]).toEqual([400, JSON.stringify(body).slice(0, 60)]);
    }
    expect((await reader.client.post(`${base()}/conversations`, conversation('r1', 'x?'))).status).toBe(403);
    expect((await guest.client.get(`${base()}/conversations`)).status).toBe(404);
    expect((await mallory.client.get(`${base()}/conversations-clusters`)).status).toBe(404);
    expect((await mallory.client.post(`${base()}/conversations`, conversation('m1', 'x?'))).status).toBe(404);
    expect((await reader.client.get(`${base()}/conversations-clusters?orderBy=label`)).status).toBe(400);
    expect((await reader.client.get<any>(`${base()}/conversations-clusters?status=pending`)).body).toEqual({ items: [], count: 0 });
    expect((await reader.client.get(`${base()}/conversations/nope`)).status).toBe(404);
    expect((await reader.client.get(`${base()}/conversations-issues/nope`)).status).toBe(404);
    expect((await reader.client.get(`${base()}/conversations-clusters/nope`)).status).toBe(404);
  });

  it('works through the official client (0.146.0, the last with these operations)', async () => {
    await t.app.listen(0, '127.0.0.1');
    const endpoint = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    const transport = contractTransport();
    const api = new GitBookAPI({ endpoint, authToken: editor.token, serviceBinding: transport }).orgs;
    expect((await api.ingestConversation(org, conversation('k1', 'How do I invite my team?'))).status).toBe(204);
    await analysed();
    const conversations = await api.listConversations(org);
    expect((await api.getConversationById(org, conversations.data.items[0].id)).data.conversation.object).toBe('conversation');
    const issues = await api.listConversationsIssues(org);
    expect((await api.getConversationIssueById(org, issues.data.items[0].issue.id)).data.issue.object).toBe('conversation-issue');
    const clusters = await api.listConversationsIssuesClusters(org);
    expect((await api.getConversationsIssuesCluster(org, clusters.data.items[0].id)).data.object).toBe('issues-cluster');
  });
});

describe('conversations analysed by a model', () => {
  it('lets the model extract issues, and falls back to the built-in method when it fails', async () => {
    const fake = await startFakeAiProvider();
    fake.answerWith((body) => {
      const transcript = body.messages[1].content;
      return JSON.stringify({ issues: [{ title: transcript.includes('SSO') ? 'SSO setup with Okta is not documented' : 'Other', summary: 'From the model' }] });
    });
    const t = await TestApp.start({ outboundAllowPrivate: true, aiApiUrl: fake.url, aiModel: 'fake', aiMaxRetries: 0 });
    const worker = await TestWorker.start(t);
    try {
      const owner = await t.user('Owner');
      const org = await t.organization(owner);
      await owner.client.must.post(`/v1/orgs/${org}/conversations`, conversation('m1', 'We use Okta. How do we set up SSO?'));
      await until('the analysis', async () => Number((await t.dataSource.query(`SELECT count(*) FROM conversations WHERE processed_at IS NULL`))[0].count) === 0, 30000);
      let issues = (await owner.client.get<any>(`/v1/orgs/${org}/conversations-issues`)).body.items.map((item: any) => item.issue);
      expect(issues.map((i: { title: string; summary: string }) => [i.title, i.summary])).toEqual([['SSO setup with Okta is not documented', 'From the model']]);

      fake.fail(500, 1);
      await owner.client.must.post(`/v1/orgs/${org}/conversations`, conversation('m2', 'Why does the export fail with an error?'));
      await until('the analysis', async () => Number((await t.dataSource.query(`SELECT count(*) FROM conversations WHERE processed_at IS NULL`))[0].count) === 0, 30000);
      issues = (await owner.client.get<any>(`/v1/orgs/${org}/conversations-issues`)).body.items.map((item: any) => item.issue);
      expect(issues.map((i: { title: string }) => i.title)).toContain('Why does the export fail with an error?');
    } finally {
      await worker.close();
      await t.close();
      await fake.close();
    }
  });
});
