import { AddressInfo } from 'node:net';
import request from 'supertest';
import { TestApp, TestUser } from '@app/testing';
import { TestWorker } from '@app/testing/test-worker';
import { InsightsRecorder } from '../src/modules/insights/application/insights-recorder';
import { RollupSiteInsights } from '../src/modules/insights/application/insights.jobs';
import { commitContent } from './content.fixtures';
import { contractTransport } from './support/contract-transport';

// The official client, unchanged.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { GitBookAPI } = require('gitbook-api-current');

/**
 * Site insights: readers' events from GitBook's renderer (trackEventsInSiteById) and from our own
 * reader pages, counted per day by the worker, asked for with aggregateSiteEvents; nothing that
 * identifies a reader is stored.
 */
describe('Site insights (e2e)', () => {
  let t: TestApp;
  let worker: TestWorker;
  let endpoint: string;
  let alice: TestUser;
  let mallory: TestUser;
  let org: string;
  let space: string;
  let siteId: string;
  let siteSpaceId: string;
  let api: any;
  const VISITOR_ID = 'visitor-cookie-0123456789';

  beforeAll(async () => {
    t = await TestApp.start({ insights: { eventsRetentionDays: 31, retentionDays: 400, rollupEveryMs: 3_600_000, flushMs: 20, settleMs: 0 } });
    worker = await TestWorker.start(t);
    await t.app.listen(0, '127.0.0.1');
    endpoint = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    [alice, mallory] = [await t.user('Alice'), await t.user('Mallory')];
    org = await t.organization(alice);
    await t.organization(mallory, [], 'Elsewhere');
    space = (await alice.client.post<any>(`/v1/orgs/${org}/spaces`, { title: 'Guides' })).body.id;
    await commitContent(t, space, [
      { id: 'intro', title: 'Introduction', slug: 'intro', body: 'Welcome to the widget.' },
      { id: 'setup', title: 'Setup', slug: 'setup', body: 'Install the widget.' },
    ]);
    siteId = (await alice.client.post<any>(`/v1/orgs/${org}/sites`, { title: 'Docs', spaces: [space] })).body.id;
    await alice.client.must.patch(`/v1/orgs/${org}/sites/${siteId}`, { basename: 'widget' });
    await alice.client.must.post(`/v1/orgs/${org}/sites/${siteId}/publish`);
    siteSpaceId = (await alice.client.get<any>(`/v1/orgs/${org}/sites/${siteId}/site-spaces`)).body.items[0].id;
    api = new GitBookAPI({ endpoint, authToken: alice.token, serviceBinding: contractTransport() });
  });
  afterAll(async () => {
    await worker.close();
    await t.close();
  });

  const event = (type: string, page: string | null, extra: Record<string, unknown> = {}, visitorId = VISITOR_ID) => ({
    type,
    session: { visitorId, sessionId: `${visitorId}-session`, cookies: {}, userAgent: 'Mozilla/5.0 Test', language: 'en', referrer: 'https://www.google.com/search?q=widget' },
    location: { url: `http://docs.test/sites/widget/${page ?? ''}`, siteSection: null, siteSpace: siteSpaceId, siteShareKey: null, space, revision: null, page },
    ...extra,
  });
  /** Waits for the batch in memory, then runs the worker's rollup. */
  const settle = async () => {
    await t.get<InsightsRecorder>(InsightsRecorder).flush();
    await worker.run(RollupSiteInsights, {});
  };
  const aggregate = (body: object, user = alice) => user.client.post<any>(`/v1/orgs/${org}/sites/${siteId}/insights/events/aggregate`, body);
  const asRows = (result: { columns: Array<{ column: string; values: unknown[] }> }): Array<Record<string, unknown>> =>
    result.columns[0].values.map((_, i) => Object.fromEntries(result.columns.map((column) => [column.column, column.values[i]])));

  it("records the renderer's events (the official client) and counts them by page, type, referrer and day", async () => {
    const tracked = await api.orgs.trackEventsInSiteById(org, siteId, {
      events: [
        event('page_view', 'intro'),
        event('page_view', 'intro', {}, 'second-visitor'),
        event('page_view', 'setup'),
        event('search_type_query', 'intro', { query: '  Widget  PRICING ' }),
        event('page_post_feedback', 'setup', { feedback: { rating: 'bad' } }),
        event('link_click', 'intro', { link: { target: { kind: 'url', url: 'https://example.com/pricing' }, position: 'content' } }),
      ],
    });
    expect(tracked.status).toBe(204);
    await settle();

    const byPage = (await api.orgs.aggregateSiteEvents(org, siteId, {
      range: 'last7Days',
      select: [{ column: 'page' }, { column: 'eventsCount' }, { column: 'visitorsCount' }],
      where: [{ column: 'eventType', values: ['page_view'] }],
    })).data;
    expect(asRows(byPage)).toEqual([
      { page: { page: 'intro', space }, eventsCount: 2, visitorsCount: 2 },
      { page: { page: 'setup', space }, eventsCount: 1, visitorsCount: 1 },
    ]);
    const byType = asRows((await aggregate({ range: 'last24Hours', select: [{ column: 'eventType' }, { column: 'eventsCount' }], order: { by: { column: 'eventType' }, direction: 'asc' } })).body);
    expect(byType).toEqual([
      { eventType: 'link_click', eventsCount: 1 },
      { eventType: 'page_post_feedback', eventsCount: 1 },
      { eventType: 'page_view', eventsCount: 3 },
      { eventType: 'search_type_query', eventsCount: 1 },
    ]);
    expect(asRows((await aggregate({ range: 'last30Days', select: [{ column: 'referrerDomain' }, { column: 'eventsCount' }] })).body)).toEqual([{ referrerDomain: 'www.google.com', eventsCount: 6 }]);
    expect(asRows((await aggregate({ range: 'last30Days', select: [{ column: 'eventSearchQuery' }, { column: 'eventsCount' }] })).body)).toEqual([{ eventSearchQuery: 'widget pricing', eventsCount: 1 }]);
    const today = new Date(t.clock.now().toISOString().slice(0, 10) + 'T00:00:00.000Z').toISOString();
    expect(asRows((await aggregate({ range: 'last7Days', select: [{ column: 'datetime', interval: 'day' }, { column: 'eventsCount' }, { column: 'sessionsCount' }] })).body)).toEqual([{ datetime: today, eventsCount: 6, sessionsCount: 2 }]);
    // hour buckets come from the events themselves
    const hour = asRows((await aggregate({ range: 'last24Hours', select: [{ column: 'datetime', interval: 'hour' }, { column: 'eventsCount' }] })).body);
    expect(hour.map((row) => row.eventsCount)).toEqual([6]);
    // what a docs team acts on: the pages readers rated unhelpful
    const unhelpful = await alice.client.get<any>(`/v1/orgs/${org}/sites/${siteId}/insights/unhelpful-pages`);
    expect(unhelpful.body.items).toEqual([{ page: { page: 'setup', space }, ratings: 1 }]);
    // and where readers go: link targets as content references
    expect(asRows((await aggregate({ range: 'last7Days', select: [{ column: 'eventLinkTargetValue' }, { column: 'eventsCount' }] })).body)).toEqual([{ eventLinkTargetValue: { kind: 'url', url: 'https://example.com/pricing' }, eventsCount: 1 }]);
  });

  it('counts what our own reader pages show, and the searches that found nothing', async () => {
    const server = t.app.getHttpServer();
    for (const path of ['/sites/widget/intro', '/sites/widget/setup', '/sites/widget/setup', '/sites/widget/~search?q=gizmo', '/sites/widget/~search?q=widget']) {
      expect((await request(server).get(path).set('User-Agent', 'Reader/1.0')).status).toBe(200);
    }
    await settle();
    const views = asRows((await aggregate({ range: 'last24Hours', select: [{ column: 'page' }, { column: 'eventsCount' }], where: [{ column: 'eventType', values: ['page_view'] }, { column: 'page', values: [{ page: 'setup', space }] }] })).body);
    expect(views).toEqual([{ page: { page: 'setup', space }, eventsCount: 3 }]);
    const none = await alice.client.get<any>(`/v1/orgs/${org}/sites/${siteId}/insights/searches-without-results?range=last7Days`);
    expect(none.status).toBe(200);
    expect(none.body.items).toEqual([{ query: 'gizmo', searches: 1, visitors: 1 }]);
  });

  it('stores nothing that identifies a reader, and forgets past days\' salts', async () => {
    const rows: Array<Record<string, unknown>> = await t.dataSource.query('SELECT * FROM site_insight_events');
    const stored = JSON.stringify(rows);
    expect(rows.length).toBeGreaterThan(0);
    for (const secret of [VISITOR_ID, 'second-visitor', '127.0.0.1', 'Mozilla', 'Reader/1.0', 'search?q=widget']) expect(stored).not.toContain(secret);
    expect(rows.every((row) => typeof row.visitor === 'string' && (row.visitor as string).length === 22)).toBe(true);
    await t.dataSource.query(`INSERT INTO site_insight_salts (day, salt) VALUES ('2020-01-01', 'old')`);
    await worker.run(RollupSiteInsights, {});
    // only the salt of the day it is (on the server's clock) is left
    expect(await t.dataSource.query(`SELECT day::text AS day FROM site_insight_salts`)).toEqual([{ day: t.clock.now().toISOString().slice(0, 10) }]);
  });

  it('refuses bad events and unpublished or foreign sites, and shows counts to the site\'s members only', async () => {
    const track = (body: object, site = siteId, organization = org) => t.client().post<any>(`/v1/orgs/${organization}/sites/${site}/insights/events`, body);
    expect((await track({ events: [{ ...event('page_view', 'intro'), type: 'page_explode' }] })).status).toBe(400);
    expect((await track({ events: [event('page_view', 'intro', { timestamp: new Date(t.clock.now().getTime() - 3600_000).toISOString() })] })).status).toBe(400);
    expect((await track({ events: [event('page_post_feedback', 'intro', { feedback: { rating: 'meh' } })] })).status).toBe(400);
    expect((await track({ events: Array.from({ length: 101 }, () => event('page_view', 'intro')) })).status).toBe(400);
    expect((await track({ events: [event('page_view', 'intro')] }, siteId, 'not-an-org')).status).toBe(404);
    const draft = (await alice.client.post<any>(`/v1/orgs/${org}/sites`, { title: 'Draft', spaces: [space] })).body.id;
    expect((await track({ events: [event('page_view', 'intro')] }, draft)).status).toBe(404);

    expect((await aggregate({ range: 'last7Days' }, mallory)).status).toBe(404);
    expect((await mallory.client.get(`/v1/orgs/${org}/sites/${siteId}/insights/visitor-segments`)).status).toBe(404);
    expect((await aggregate({ range: 'forever' })).status).toBe(400);
    for (const shortcut of ['searches-without-results', 'unhelpful-pages']) {
      expect((await alice.client.get(`/v1/orgs/${org}/sites/${siteId}/insights/${shortcut}?range=forever`)).status).toBe(400);
      expect((await mallory.client.get(`/v1/orgs/${org}/sites/${siteId}/insights/${shortcut}`)).status).toBe(404);
    }
    expect((await aggregate({ range: 'last3Months', select: [{ column: 'datetime', interval: 'hour' }] })).status).toBe(400);
    expect((await aggregate({ range: 'last7Days', select: [{ column: 'page' }, { column: 'urlPath' }] })).status).toBe(400);
    expect((await aggregate({ range: 'last7Days', select: [{ column: 'page' }], where: [{ column: 'referrerDomain', values: ['x'] }] })).status).toBe(400);
  });

  it('lists visitor segments and takes agents\' feedback', async () => {
    const segments = (await api.orgs.listSiteVisitorSegments(org, siteId)).data;
    expect(segments.items[0]).toMatchObject({ title: 'Anonymous visitors', claims: {}, events: expect.any(Number), visitors: expect.any(Number), sessions: expect.any(Number) });
    const feedback = await alice.client.post(`/v1/orgs/${org}/sites/${siteId}/agent-feedback`, { feedback: 'The setup page skips the install step.', url: 'http://docs.test/sites/widget/setup', spaceId: space, pageId: 'setup' });
    expect(feedback.status).toBe(204);
    await settle();
    expect(asRows((await aggregate({ range: 'last24Hours', select: [{ column: 'page' }, { column: 'eventsCount' }], where: [{ column: 'eventType', values: ['agent_feedback'] }] })).body)).toEqual([{ page: { page: 'setup', space }, eventsCount: 1 }]);
  });

  it('prunes events past their retention; the daily counts stay', async () => {
    const before = await aggregate({ range: 'last7Days', select: [{ column: 'eventsCount' }] });
    t.clock.advance(40 * 24 * 3600_000);
    try {
      await worker.run(RollupSiteInsights, {});
      expect(await t.dataSource.query('SELECT count(*)::int AS n FROM site_insight_events')).toEqual([{ n: 0 }]);
      const after = await aggregate({ range: { from: new Date(t.clock.now().getTime() - 45 * 24 * 3600_000).toISOString(), to: t.clock.now().toISOString() }, select: [{ column: 'eventsCount' }] });
      expect(after.body).toEqual(before.body);
    } finally {
      t.clock.advance(-40 * 24 * 3600_000);
    }
  });
});
