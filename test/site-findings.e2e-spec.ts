import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { TestApp, TestUser } from '@app/testing';
import { TestWorker } from '@app/testing/test-worker';
import { InsightsRecorder } from '../src/modules/insights/application/insights-recorder';
import { InsightsService } from '../src/modules/insights/application/insights.service';
import { RollupSiteInsights } from '../src/modules/insights/application/insights.jobs';
import { observedEvent } from '../src/modules/insights/domain/site-event';
import { AnalyseConversations } from '../src/modules/conversations/application/conversation.jobs';
import { ScanDueSites } from '../src/modules/site-context/application/site-context.jobs';
import { ChangeRequestAuthoringService } from '../src/modules/change-requests/authoring/application/change-request-authoring.service';
import { publish } from './search.fixtures';
import { contractTransport } from './support/contract-transport';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { GitBookAPI } = require('gitbook-api-current');

/**
 * Findings, without a model, through the current official client: readers' unanswered questions,
 * searches without results, a page rated unhelpful, an agent's report, a support conversation,
 * records pushed and records pulled from a JSON feed go through a scan (a worker job) into topics
 * and findings pointing at their evidence and pages; a finding's change request holds the evidence.
 */
describe('Site findings', () => {
  let t: TestApp;
  let worker: TestWorker;
  let feed: Server;
  let alice: TestUser, rita: TestUser, mallory: TestUser;
  let org: string, site: string, guides: string;
  let endpoint: string, feedUrl: string;
  const api = (user: TestUser) => new GitBookAPI({ endpoint, authToken: user.token, serviceBinding: contractTransport() });
  const ask = async (question: string) => {
    for await (const _ of new GitBookAPI({ endpoint, authToken: alice.token }).orgs.streamAskInSite(org, site, { question, scope: { mode: 'all' } }, { format: 'markdown' })) void _;
  };
  const scanned = async (scanId: string) => {
    for (let i = 0; i < 100; i++) {
      const scan = (await api(alice).orgs.getSiteScanById(org, site, scanId)).data;
      if (scan.status === 'done' || scan.status === 'failed') return scan;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('the scan did not finish');
  };

  beforeAll(async () => {
    feed = createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ items: [{ id: 'forum-1', type: 'ticket', title: 'Webhook deliveries arrive twice', body: 'Duplicate webhook calls after a retry.' }, { id: 'bad', title: 'no body' }] }));
    });
    await new Promise<void>((resolve) => feed.listen(0, '127.0.0.1', resolve));
    feedUrl = `http://127.0.0.1:${(feed.address() as AddressInfo).port}/feed.json`;
    t = await TestApp.start({ secretsKey: Buffer.alloc(32, 7).toString('base64'), outboundAllowPrivate: true, aiApiUrl: undefined, aiModel: undefined, insights: { eventsRetentionDays: 31, retentionDays: 400, rollupEveryMs: 3_600_000, flushMs: 20, settleMs: 0 } });
    worker = await TestWorker.start(t);
    [alice, rita, mallory] = [await t.user('Alice'), await t.user('Rita'), await t.user('Mallory')];
    org = await t.organization(alice, [[rita, 'read']]);
    await t.organization(mallory, [], 'Elsewhere');
    guides = (await alice.client.must.post<any>(`/v1/orgs/${org}/spaces`, { title: 'Guides' })).body.id;
    await publish(t, guides, [
      { id: 'install', title: 'Install the gizmo', slug: 'install', body: 'Run the gizmo installer.' },
      { id: 'billing', title: 'Billing', slug: 'billing', body: 'Invoices are sent monthly.' },
    ]);
    site = (await alice.client.must.post<any>(`/v1/orgs/${org}/sites`, { title: 'Docs', spaces: [guides] })).body.id;
    await alice.client.must.patch(`/v1/orgs/${org}/sites/${site}`, { basename: 'docs' });
    await alice.client.must.post(`/v1/orgs/${org}/sites/${site}/publish`);
    await t.app.listen(0, '127.0.0.1');
    endpoint = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;

    // Readers' questions nothing answers (twice the same one), and one the docs answer.
    await ask('How do I configure webhook retries?');
    await ask('how do I configure webhook retries');
    await ask('Where is the webhook signing secret?');
    await ask('How do I run the gizmo installer?');
    // A search without results and a page rated unhelpful, as the site's insights keep them.
    const insights = t.get<InsightsService>(InsightsService);
    await insights.recordServed(site, [observedEvent({ type: 'search_type_query', visitorKey: 'v1', sessionKey: 's1', displayContext: 'site', searchQuery: 'webhook payload', searchResults: 0 })]);
    await t.client().post(`/v1/orgs/${org}/sites/${site}/insights/events`, {
      events: [{ type: 'page_post_feedback', feedback: { rating: 'bad' }, session: { visitorId: 'v2', sessionId: 's2' }, location: { url: 'http://docs.test/docs/billing', space: guides, page: 'billing' } }],
    });
    await t.get<InsightsRecorder>(InsightsRecorder).flush();
    await worker.run(RollupSiteInsights, {});
    // An agent's report, a support conversation (analysed without a model), records pushed.
    await api(rita).orgs.submitAgentFeedbackToSite(org, site, { subject: { kind: 'documentation', url: 'https://docs.test/docs/billing' }, feedback: { category: 'documentation', summary: 'Billing invoices page is wrong about VAT' } });
    await alice.client.must.post(`/v1/orgs/${org}/conversations`, { id: 'c1', subject: 'Webhook help', parts: [{ type: 'message', role: 'user', body: 'My webhook endpoint never receives events. How do I debug webhook delivery?' }] });
    await worker.run(AnalyseConversations, { organizationId: org });
  });
  afterAll(async () => {
    await worker?.close();
    await t?.close();
    await new Promise((resolve) => feed.close(resolve));
  });

  it('keeps records pushed and pulled from a JSON feed, credentials sealed', async () => {
    expect((await api(alice).orgs.upsertSiteContextRecords(org, site, [{ id: 't-1', type: 'ticket', title: 'Webhook retries are undocumented', body: 'Customer asks how retries work.' }])).status).toBe(204);
    const website = (await api(alice).orgs.createSiteContextConnection(org, site, { connector: 'builtin:website', setupSettings: { url: feedUrl } })).data;
    expect(website).toMatchObject({ object: 'context-connection', connector: 'builtin:website', status: 'pending', records: 0, usageSettings: { search: true } });
    expect((await api(alice).orgs.testSiteContextConnection(org, site, website.id)).data).toEqual({ object: 'context-connection-test-result', success: true });
    expect((await api(alice).orgs.syncSiteContextConnection(org, site, website.id)).status).toBe(204);
    let synced: any;
    for (let i = 0; i < 100 && synced?.status !== 'succeeded'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      synced = (await api(alice).orgs.getSiteContextConnectionById(org, site, website.id)).data;
    }
    expect(synced).toMatchObject({ status: 'succeeded', records: 1 });

    const zendesk = (await api(alice).orgs.createSiteContextConnection(org, site, { connector: 'builtin:zendesk', setupSettings: { subdomain: 'acme', email: 'ops@acme.test', apiToken: 'zd-secret-token' } })).data;
    expect(zendesk.setupSettings).toEqual({ subdomain: 'acme', email: 'ops@acme.test', apiToken: '********' });
    expect(JSON.stringify((await api(alice).orgs.listSiteContextConnections(org, site)).data)).not.toContain('zd-secret-token');
    expect((await alice.client.post<any>(`/v1/orgs/${org}/sites/${site}/context-connections/${zendesk.id}/sync`)).status).toBe(400);
    expect((await api(alice).orgs.testSiteContextConnection(org, site, zendesk.id)).data.success).toBe(false);
    const relabelled = (await api(alice).orgs.updateSiteContextConnectionById(org, site, zendesk.id, { label: 'Support', setupSettings: { subdomain: 'acme2', email: 'ops@acme.test', apiToken: '********' } } as any)).data;
    expect(relabelled).toMatchObject({ label: 'Support', setupSettings: { subdomain: 'acme2' } });

    const records = (await api(rita).orgs.listSiteContextRecords(org, site, { connection: website.id })).data;
    expect(records.items).toEqual([expect.objectContaining({ object: 'context-record', title: 'Webhook deliveries arrive twice', type: 'ticket', connector: 'builtin:website' })]);
    expect((await api(rita).orgs.getSiteContextRecordById(org, site, records.items[0].id)).data.id).toBe(records.items[0].id);

    const post = (user: TestUser, body: unknown) => user.client.post<any>(`/v1/orgs/${org}/sites/${site}/context-connections`, body);
    expect((await post(alice, { connector: 'builtin:website', setupSettings: { url: 'file:///etc/passwd' } })).status).toBe(400);
    expect((await post(alice, { connector: 'builtin:telepathy' })).status).toBe(400);
    expect((await post(alice, { connector: 'builtin:zendesk', setupSettings: { subdomain: 'x' } })).status).toBe(400);
    expect((await post(rita, { connector: 'builtin:api' })).status).toBe(403);
    expect((await post(mallory, { connector: 'builtin:api' })).status).toBe(404);
    expect((await rita.client.put<any>(`/v1/orgs/${org}/sites/${site}/context-records`, [{ id: 'x', type: 'ticket', title: 'x', body: 'x' }])).status).toBe(403);
    expect((await alice.client.put<any>(`/v1/orgs/${org}/sites/${site}/context-records`, [{ id: 'x', type: 'memo', title: 'x', body: 'x' }])).status).toBe(400);
  });

  it('scans the evidence into topics and findings that point at their questions, records and pages', async () => {
    const scan = (await alice.client.must.post<any>(`/v1/orgs/${org}/sites/${site}/scans`)).body;
    expect(scan).toMatchObject({ object: 'site-scan', status: 'pending' });
    const done = await scanned(scan.id);
    expect(done.status).toBe('done');
    expect(done.findings.low + done.findings.medium + done.findings.high).toBeGreaterThan(0);

    const topics = (await api(rita).orgs.listSiteTopics(org, site)).data.items;
    const webhook = topics.find((topic: any) => topic.label === 'Webhook');
    expect(webhook).toMatchObject({ object: 'context-topic', findings: { open: 1, total: 1 } });
    expect(webhook.records).toBeGreaterThanOrEqual(3);
    expect(webhook.questions.answers).toBe(3);

    const findings = (await api(rita).orgs.listSiteFindings(org, site, { topic: webhook.id })).data.items;
    expect(findings).toEqual([expect.objectContaining({ type: 'content-gap', status: 'open', topic: webhook.id, title: 'Readers do not find answers about webhook' })]);
    const gap = findings[0];
    const questions = (await api(rita).orgs.listQuestionsForSiteFinding(org, site, gap.id)).data.items.map((q: any) => q.question);
    expect(questions.sort()).toEqual(['How do I configure webhook retries?', 'Where is the webhook signing secret?']);
    const titles = (await api(rita).orgs.listRecordsForSiteFinding(org, site, gap.id)).data.items.map((r: any) => r.title);
    expect(titles).toEqual(expect.arrayContaining(['webhook payload', 'Webhook retries are undocumented', 'Webhook deliveries arrive twice']));
    expect(titles.some((title: string) => /webhook/i.test(title) && !/payload|retries|twice/.test(title))).toBe(true); // the support conversation's issue

    const billing = (await api(rita).orgs.listSiteFindings(org, site, { type: ['content-incorrect'] })).data.items.find((f: any) => /billing/i.test(f.title));
    expect(billing).toBeDefined();
    const pages = (await api(rita).orgs.listPagesForSiteFinding(org, site, billing.id)).data.items;
    expect(pages).toEqual([{ object: 'site-finding-page', spaceId: guides, page: expect.objectContaining({ id: 'billing', title: 'Billing' }) }]);

    const stats = (await api(rita).orgs.getSiteFindingStats(org, site)).data;
    expect(stats.total).toBe(stats.statuses.open);
    expect(stats.questions).toBeGreaterThanOrEqual(1);
    expect(stats.connectors['builtin:website']).toBe(1);

    // The worker's periodic pass scans the sites with new evidence (this one scans automatically).
    const scansBefore = (await api(rita).orgs.listSiteScans(org, site)).data.count;
    expect(await worker.run(ScanDueSites, {})).toEqual({ started: 1 });
    expect((await api(rita).orgs.listSiteScans(org, site)).data.count).toBe(scansBefore + 1);

    // Scanned again: the same findings, updated, not doubled.
    await scanned((await alice.client.must.post<any>(`/v1/orgs/${org}/sites/${site}/scans`)).body.id);
    expect((await api(rita).orgs.listSiteFindings(org, site, { topic: webhook.id })).data.items.map((f: any) => f.id)).toEqual([gap.id]);
    expect((await api(rita).orgs.listSiteScans(org, site, { status: 'done' })).data.count).toBeGreaterThanOrEqual(2);
  });

  it('drafts a change request holding the evidence, and follows status changes', async () => {
    const [gap] = (await api(alice).orgs.listSiteFindings(org, site, { type: ['content-gap'], orderBy: 'sources' })).data.items;
    // The worker's first attempt dies once the change request is open, before its page is written: the retry fills that one.
    const write = jest.spyOn(ChangeRequestAuthoringService.prototype, 'updateContent').mockRejectedValueOnce(new Error('worker killed'));
    let changeRequests: any[] = [];
    let page: { status: number; body: any } = { status: 0, body: null };
    try {
      expect((await api(alice).orgs.triggerChangeRequestsForSiteFinding(org, site, gap.id)).status).toBe(202);
      for (let i = 0; i < 300 && page.status !== 200; i++) {
        await new Promise((r) => setTimeout(r, 100));
        changeRequests = (await api(rita).orgs.listChangeRequestsForSiteFinding(org, site, gap.id)).data.items;
        if (changeRequests.length > 0) {
          page = await alice.client.get<any>(`/v1/spaces/${guides}/change-requests/${changeRequests[0].id}/content/path/${encodeURIComponent('readers-do-not-find-answers-about-webhook')}?format=markdown`);
        }
      }
      expect(write).toHaveBeenCalledTimes(2);
    } finally {
      write.mockRestore();
    }
    expect(changeRequests).toHaveLength(1);
    expect(changeRequests[0].subject).toBe(`Fix: ${gap.title}`);
    expect(page.status).toBe(200);
    // No second change request was opened in the space, listed or not.
    expect(await t.dataSource.query(`SELECT id FROM change_requests WHERE space_id = $1 AND subject = $2`, [guides, `Fix: ${gap.title}`])).toEqual([{ id: changeRequests[0].id }]);
    expect(page.body.markdown).toContain('{% hint style="warning" %}');
    expect(page.body.markdown).toContain('configure webhook retries');
    expect((await api(rita).orgs.getSiteFindingById(org, site, gap.id)).data.changeRequests).toBe(1);

    expect((await rita.client.patch<any>(`/v1/orgs/${org}/sites/${site}/findings/${gap.id}`, { status: 'done' })).status).toBe(403);
    expect((await api(alice).orgs.updateSiteFindingById(org, site, gap.id, { status: 'done' })).data.status).toBe('done');
    expect((await alice.client.post<any>(`/v1/orgs/${org}/sites/${site}/findings/${gap.id}/change-requests`)).status).toBe(409);
    expect((await alice.client.patch<any>(`/v1/orgs/${org}/sites/${site}/findings/${gap.id}`, { status: 'fixed' })).status).toBe(400);
    expect((await mallory.client.get<any>(`/v1/orgs/${org}/sites/${site}/findings`)).status).toBe(404);
    expect((await mallory.client.get<any>(`/v1/orgs/${org}/sites/${site}/findings/${gap.id}`)).status).toBe(404);

    const [topic] = (await api(alice).orgs.listSiteTopics(org, site)).data.items;
    expect((await api(alice).orgs.updateSiteTopicById(org, site, topic.id, { usageSettings: { changeRequests: false } })).data.usageSettings).toEqual({ changeRequests: false });
    expect((await api(alice).orgs.deleteSiteTopicFindings(org, site, topic.id)).status).toBe(205);
    expect((await api(alice).orgs.getSiteTopicById(org, site, topic.id)).data.findings).toEqual({ open: 0, total: 0 });
  }, 60_000);
});
