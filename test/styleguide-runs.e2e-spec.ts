import { AddressInfo } from 'node:net';
import { TestApp, TestUser } from '@app/testing';
import { TestWorker } from '@app/testing/test-worker';
import { JobPort } from '../src/jobs/job-port';
import { CheckStyleguide } from '../src/modules/styleguides/application/styleguide.jobs';
import { commitContent } from './content.fixtures';
import { editChangeRequest } from './search.fixtures';
import { contractTransport } from './support/contract-transport';
import { startFakeAiProvider } from './support/fake-ai-provider';
import { until } from './support/worker-process';

// The official client, unchanged.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { GitBookAPI } = require('gitbook-api-current');

/**
 * createSiteStyleguideRun and listSiteStyleguideRuns, with the real worker and a fake model that
 * applies one rule ("use", never "utilize") to the page it is sent, as a model following the
 * style guide would.
 */
describe('Style guide check runs (e2e)', () => {
  let fake: Awaited<ReturnType<typeof startFakeAiProvider>>;
  let t: TestApp;
  let worker: TestWorker;
  let carl: TestUser; // create
  let rita: TestUser; // read
  let mallory: TestUser;
  let org: string;
  let siteId: string;
  let guides: string;
  let reference: string;
  let outside: string;
  let styleguide: string;
  const runs = () => `/v1/orgs/${org}/sites/${siteId}/styleguide/runs`;
  const GUIDES = [
    { id: 'start', title: 'Getting started', slug: 'getting-started', body: 'Utilize the `utilize --now` command, then read [utilize](https://example.com/utilize).' },
    { id: 'install', title: 'Install', slug: 'install', body: 'Run the installer.' },
  ];

  beforeAll(async () => {
    fake = await startFakeAiProvider();
    fake.answerWith((body) => {
      const page = JSON.parse(body.messages.find((m) => m.role === 'user')!.content) as { title: string; body: string };
      const fix = (text: string) => text.replace(/\butilize\b/g, 'use').replace(/\bUtilize\b/g, 'Use');
      // A model that loses the protected code of this page, every time.
      if (page.title === 'Broken') return JSON.stringify({ title: page.title, body: 'Use it.' });
      return JSON.stringify({ title: fix(page.title), body: fix(page.body) });
    });
    t = await TestApp.start({ aiApiUrl: fake.url, aiApiKey: 'k', aiModel: 'fake-model', aiMaxRetries: 0, aiMaxConcurrency: 1, styleguideMaxPages: 3, outboundAllowPrivate: true });
    worker = await TestWorker.start(t);
    const alice = await t.user('Alice');
    [carl, rita, mallory] = [await t.user('Carl'), await t.user('Rita'), await t.user('Mallory')];
    org = await t.organization(alice, [[carl, 'create'], [rita, 'read']]);
    await t.organization(mallory, [], 'Elsewhere');
    const space = async (title: string) => (await carl.client.post<any>(`/v1/orgs/${org}/spaces`, { title })).body.id as string;
    [guides, reference, outside] = [await space('Guides'), await space('Reference'), await space('Outside')];
    await commitContent(t, guides, GUIDES);
    await commitContent(t, reference, [
      { id: 'a', title: 'Alpha', slug: 'alpha', body: 'Utilize alpha.' },
      { id: 'b', title: 'Beta', slug: 'beta', body: 'Utilize beta.' },
    ]);
    siteId = (await carl.client.post<any>(`/v1/orgs/${org}/sites`, { title: 'Docs', spaces: [guides, reference] })).body.id;
    styleguide = (await carl.client.post<any>(`/v1/orgs/${org}/sites/${siteId}/styleguide`, { template: 'technical' })).body.id;
  });
  afterAll(async () => {
    await worker.close();
    await t.close();
    await fake.close();
  });

  // Each test starts a minute later, so runs are ordered by their time.
  beforeEach(() => t.clock.advance(60_000));

  const changeRequest = (spaceId: string, id: string) => carl.client.get<any>(`/v1/spaces/${spaceId}/change-requests/${id}`);
  const checked = (spaceId: string, id: string) =>
    until('the check', async () => {
      const cr = (await changeRequest(spaceId, id)).body;
      return cr.styleguide?.checkedAt ? cr : undefined;
    }, 30000);
  const page = async (spaceId: string, crId: string, pageId: string) => (await carl.client.get<any>(`/v1/spaces/${spaceId}/change-requests/${crId}/content/page/${pageId}`, { format: 'markdown' })).body;

  it('opens a draft change request per space, marked with the run, where the model brings the pages in line', async () => {
    const sent = fake.requests.length;
    const res = await carl.client.post<any>(runs(), { spaces: [guides] });
    expect(res.status).toBe(201);
    expect(res.body.run).toMatchObject({ object: 'styleguide-run', site: siteId, styleguide, spaces: [guides], createdBy: { id: carl.id } });
    expect(res.body.changeRequests).toHaveLength(1);
    const [opened] = res.body.changeRequests;
    expect(opened).toMatchObject({ object: 'change-request', status: 'draft', subject: 'Style guide check', styleguide: { site: siteId, run: res.body.run.id } });

    const done = await checked(guides, opened.id);
    expect(done.styleguide).toMatchObject({ site: siteId, run: res.body.run.id, changedPages: 1 });
    const start = await page(guides, opened.id, 'start');
    // The rule applied to the prose; code and link targets kept as they were.
    expect(start.markdown).toContain('Use the `utilize --now` command, then read [use](https://example.com/utilize).');
    expect((await page(guides, opened.id, 'install')).markdown).toContain('Run the installer.');
    // Two pages went to the model (not the style guide), with the rules in the instructions.
    expect(fake.requests.length - sent).toBe(2);
    expect(fake.requests[sent].body.messages[0].content).toContain('Address the reader as "you"');
    // The space itself is untouched until someone merges.
    expect((await carl.client.get<any>(`/v1/spaces/${guides}/content/page/start`, { format: 'markdown' })).body.markdown).toContain('Utilize the');
  });

  it('a later run takes over the open change request and sends nothing already checked against the same rules', async () => {
    const first = (await carl.client.get<any>(runs())).body.items.at(-1);
    const [firstCheck] = (await carl.client.get<any>(`/v1/spaces/${guides}/change-requests`, { status: 'draft' })).body.items;
    // The second check ends with a later checkedAt (the clock moved a minute since the first).
    const previous = firstCheck.styleguide.checkedAt;
    const tagBefore = (await changeRequest(guides, firstCheck.id)).headers.etag;
    const sent = fake.requests.length;
    const res = await carl.client.post<any>(runs(), { spaces: [guides] });
    expect(res.status).toBe(201);
    const [taken] = res.body.changeRequests;
    expect(taken.styleguide.run).toBe(first.id);
    const open = (await carl.client.get<any>(`/v1/spaces/${guides}/change-requests`, { status: 'draft' })).body.items.filter((cr: any) => cr.styleguide);
    expect(open).toHaveLength(1);
    await until('the second check', async () => (await changeRequest(guides, taken.id)).body.styleguide.checkedAt > previous, 30000);
    const after = await changeRequest(guides, taken.id);
    expect(after.body.styleguide.changedPages).toBe(1);
    expect(fake.requests.length).toBe(sent);
    // Nothing was committed, but the answer changed (checkedAt): so did its entity tag.
    expect(after.body.revision).toBe(firstCheck.revision);
    expect(after.headers.etag).not.toBe(tagBefore);
  });

  it('keeps a page someone edits while its check runs, and applies the others', async () => {
    fake.holdAfter(fake.requests.length);
    const res = await carl.client.post<any>(runs(), { spaces: [reference] });
    const [opened] = res.body.changeRequests;
    await until('the first page sent', async () => fake.requests.some((r) => r.body.messages[1].content.includes('Alpha')), 30000);
    await editChangeRequest(t, reference, opened.id, [
      { id: 'a', title: 'Alpha', slug: 'alpha', body: 'Utilize alpha, edited by hand.' },
      { id: 'b', title: 'Beta', slug: 'beta', body: 'Utilize beta.' },
    ]);
    fake.release();
    const done = await checked(reference, opened.id);
    expect(done.styleguide.changedPages).toBe(1);
    expect((await page(reference, opened.id, 'a')).markdown).toContain('Utilize alpha, edited by hand.');
    expect((await page(reference, opened.id, 'b')).markdown).toContain('Use beta.');
  });

  it('leaves a change request archived while its check ran as it is', async () => {
    const outsideSite = (await carl.client.post<any>(`/v1/orgs/${org}/sites`, { title: 'Side', spaces: [outside] })).body.id;
    await carl.client.must.post(`/v1/orgs/${org}/sites/${outsideSite}/styleguide`, { template: 'concise' });
    await commitContent(t, outside, [{ id: 'o', title: 'Other', slug: 'other', body: 'Utilize other.' }]);
    fake.holdAfter(fake.requests.length);
    const res = await carl.client.post<any>(`/v1/orgs/${org}/sites/${outsideSite}/styleguide/runs`, { spaces: [outside] });
    const [opened] = res.body.changeRequests;
    await until('the page sent', async () => fake.requests.some((r) => r.body.messages[1].content.includes('Other')), 30000);
    const head = opened.revision;
    expect((await carl.client.patch(`/v1/spaces/${outside}/change-requests/${opened.id}`, { status: 'archived' })).status).toBe(200);
    fake.release();
    // The job ends as skipped (not failed and retried): there is nothing left to propose fixes in.
    const job = await until('the check to end', async () => {
      const status = await t.get<JobPort>(JobPort).status(CheckStyleguide, `${opened.id}-${res.body.run.id}`);
      return status && ['completed', 'failed', 'delayed'].includes(status.state) ? status : undefined;
    }, 30000);
    expect(job).toMatchObject({ state: 'completed', result: 'skipped' });
    const after = (await changeRequest(outside, opened.id)).body;
    expect(after).toMatchObject({ status: 'archived', revision: head });
    expect(after.styleguide.checkedAt).toBeUndefined();
  });

  it('lists runs newest first, one page at a time', async () => {
    const all = (await rita.client.get<any>(runs())).body;
    expect(all.count).toBe(3);
    expect(all.items.map((run: any) => run.spaces)).toEqual([[reference], [guides], [guides]]);
    // Runs are the site's: another site's run is not listed.
    const first = await rita.client.get<any>(runs(), { limit: 1 });
    const second = await rita.client.get<any>(runs(), { limit: 1, page: first.body.next.page });
    expect([first.body.items[0].id, second.body.items[0].id]).toEqual(all.items.slice(0, 2).map((run: any) => run.id));
    expect((await mallory.client.get(runs())).status).toBe(404);
  });

  it('counts the pages it could not revise and those past its page limit, and sends only the pages within it', async () => {
    const big = (await carl.client.post<any>(`/v1/orgs/${org}/spaces`, { title: 'Big' })).body.id;
    await commitContent(t, big, [
      { id: 'p1', title: 'One', slug: 'one', body: 'Utilize one.' },
      { id: 'p2', title: 'Broken', slug: 'broken', body: 'Utilize `broken --flag`.' },
      { id: 'p3', title: 'Three', slug: 'three', body: 'Utilize three.', pages: [{ id: 'p4', title: 'Four', slug: 'four', body: 'Utilize four.' }] },
      { id: 'p5', title: 'Five', slug: 'five', body: 'Utilize five.' },
    ]);
    expect((await carl.client.post(`/v1/orgs/${org}/sites/${siteId}/site-spaces`, { spaceId: big })).status).toBe(201);
    const sent = fake.requests.length;
    const res = await carl.client.post<any>(runs(), { spaces: [big] });
    const [opened] = res.body.changeRequests;
    const done = await checked(big, opened.id);
    expect(done.styleguide).toMatchObject({ changedPages: 2, unrevisedPages: 1, uncheckedPages: 2 });
    // One, Three, and Broken twice; Four and Five (past the limit, in tree order) were never sent.
    const titles = fake.requests.slice(sent).map((r) => JSON.parse(r.body.messages[1].content).title);
    expect(titles.sort()).toEqual(['Broken', 'Broken', 'One', 'Three']);
    expect((await page(big, opened.id, 'p2')).markdown).toContain('Utilize `broken --flag`.');
    expect((await page(big, opened.id, 'p3')).markdown).toContain('Use three.');
    expect((await page(big, opened.id, 'p4')).markdown).toContain('Utilize four.');
  });

  it('refuses bad spaces, readers, strangers and sites without a style guide, and then writes nothing', async () => {
    const before = (await t.dataSource.query('SELECT count(*)::int AS n FROM styleguide_runs'))[0].n;
    const post = (user: TestUser, body: unknown, site = siteId) => user.client.post<any>(`/v1/orgs/${org}/sites/${site}/styleguide/runs`, body);
    for (const body of [{}, { spaces: [] }, { spaces: [guides, guides] }, { spaces: ['a', 'b', 'c', 'd'] }, { spaces: 'x' }]) {
      expect({ body, status: (await post(carl, body)).status }).toEqual({ body, status: 400 });
    }
    expect((await post(carl, { spaces: [outside] })).body.error.message).toBe(`spaces: "${outside}" is not a space of this site`);
    expect((await post(carl, { spaces: [styleguide] })).body.error.message).toBe(`spaces: "${styleguide}" is the style guide itself`);
    expect((await post(rita, { spaces: [guides] })).status).toBe(403);
    expect((await post(mallory, { spaces: [guides] })).status).toBe(404);
    const plain = (await carl.client.post<any>(`/v1/orgs/${org}/sites`, { title: 'Plain', spaces: [guides] })).body.id;
    const none = await post(carl, { spaces: [guides] }, plain);
    expect(none.status).toBe(404);
    expect(none.body.error.message).toMatch(/has no style guide/);
    expect((await t.dataSource.query('SELECT count(*)::int AS n FROM styleguide_runs'))[0].n).toBe(before);
  });

  it('works through the official client', async () => {
    await t.app.listen(0, '127.0.0.1');
    const endpoint = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    const calls: string[] = [];
    const api = new GitBookAPI({ endpoint, authToken: carl.token, serviceBinding: contractTransport(calls) });
    const { data: started } = await api.orgs.createSiteStyleguideRun(org, siteId, { spaces: [reference] });
    expect(started.run.object).toBe('styleguide-run');
    const { data: list } = await api.orgs.listSiteStyleguideRuns(org, siteId);
    expect(list.items[0].id).toBe(started.run.id);
    expect(calls).toHaveLength(2);
  });

  it('answers 503 without a configured model, and writes nothing', async () => {
    const bare = await TestApp.start();
    try {
      const owner = await bare.user('Owner');
      const organization = await bare.organization(owner);
      const spaceId = (await owner.client.post<any>(`/v1/orgs/${organization}/spaces`, { title: 'Docs' })).body.id;
      const site = (await owner.client.post<any>(`/v1/orgs/${organization}/sites`, { title: 'Docs', spaces: [spaceId] })).body.id;
      await owner.client.must.post(`/v1/orgs/${organization}/sites/${site}/styleguide`);
      const res = await owner.client.post<any>(`/v1/orgs/${organization}/sites/${site}/styleguide/runs`, { spaces: [spaceId] });
      expect(res.status).toBe(503);
      expect((await bare.dataSource.query('SELECT count(*)::int AS n FROM change_requests'))[0].n).toBe(0);
    } finally {
      await bare.close();
    }
  });
});
