import { createServer, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { TestApp, TestUser } from '@app/testing';
import { TestWorker } from '@app/testing/test-worker';
import { until } from './support/waiting';

/**
 * One organization's slow specs must not hold every processing slot (security issue, availability
 * item 7): while two of Alice's specs wait on a source that does not answer, Bob's small spec is
 * processed within 5 s.
 */
describe('OpenAPI processing takes turns between organizations', () => {
  let t: TestApp;
  let worker: TestWorker;
  let alice: TestUser;
  let bob: TestUser;
  let aliceOrg: string;
  let bobOrg: string;
  const stalled: ServerResponse[] = [];
  let stalls = 0;
  let ending = false;
  const heldForCarol: ServerResponse[] = [];
  const source = createServer((req, res) => {
    if (ending) return void res.writeHead(404).end();
    if (req.url === '/carol.json') return void heldForCarol.push(res);
    // Holds the request open until the test ends: a spec source that never answers.
    stalls++;
    stalled.push(res);
  });
  let sourceBase: string;

  beforeAll(async () => {
    await new Promise<void>((resolve) => source.listen(0, '127.0.0.1', resolve));
    sourceBase = `http://127.0.0.1:${(source.address() as AddressInfo).port}`;
    // The fetch limit is far longer than the 5 s target: only the turns can let Bob through.
    t = await TestApp.start({ outboundAllowPrivate: true, openapiFetchTimeoutMs: 60_000 });
    worker = await TestWorker.start(t);
    [alice, bob] = [await t.user('Alice'), await t.user('Bob')];
    aliceOrg = await t.organization(alice, []);
    bobOrg = await t.organization(bob, [], 'Elsewhere');
  });
  afterAll(async () => {
    ending = true;
    for (const res of stalled) res.writeHead(404).end();
    await worker.close();
    await t.close();
    source.close();
  });

  const state = async (org: string, slug: string) =>
    (await t.dataSource.query(`SELECT processing_state FROM openapi_specs WHERE organization_id = $1 AND slug = $2`, [org, slug]))[0]?.processing_state;

  it("processes another organization's spec within 5 s while one organization's two specs stall", async () => {
    for (const slug of ['slow-one', 'slow-two']) {
      expect((await alice.client.post(`/v1/orgs/${aliceOrg}/openapi`, { slug, source: { url: `${sourceBase}/${slug}.json` } })).status).toBe(201);
    }
    // Alice's first spec holds a slot; her second has been offered the other one (and turned away).
    await until('a stalled fetch', () => stalls >= 1);
    await until("both of Alice's jobs taken from the queue", async () => {
      const counts = await worker.jobCounts('openapi');
      return counts.wait === 0 && counts.active + counts.delayed === 2;
    });

    const text = JSON.stringify({ openapi: '3.0.3', info: { title: 'Quick', version: '1' }, paths: { '/ping': { get: { responses: { '200': { description: 'pong' } } } } } });
    const started = Date.now();
    expect((await bob.client.post(`/v1/orgs/${bobOrg}/openapi`, { slug: 'quick', source: { text } })).status).toBe(201);
    const finished = await until('Bob’s spec processed', async () => (await state(bobOrg, 'quick')) === 'complete' && Date.now(), 5_000);
    expect(finished - started).toBeLessThan(5_000);

    // Alice's specs are still waiting on their source: one ran at a time, never both.
    expect([await state(aliceOrg, 'slow-one'), await state(aliceOrg, 'slow-two')].sort()).toEqual(['pending', 'progress']);
    expect(stalls).toBe(1);
  });

  it("drains one organization's backlog at the rate of its turns once its turn frees: each finished spec calls the next parked one back", async () => {
    const carol = await t.user('Carol');
    const carolOrg = await t.organization(carol, [], 'Backlog');
    const count = async () =>
      (await t.dataSource.query(`SELECT count(*)::int AS n FROM openapi_specs WHERE organization_id = $1 AND processing_state = 'complete'`, [carolOrg]))[0].n;
    // Carol's first spec holds her turn (its source answers when told), while eight more queue up behind it.
    expect((await carol.client.post(`/v1/orgs/${carolOrg}/openapi`, { slug: 'first', source: { url: `${sourceBase}/carol.json` } })).status).toBe(201);
    await until('the first spec fetching', () => heldForCarol.length === 1);
    for (let n = 0; n < 8; n++) {
      const text = JSON.stringify({ openapi: '3.0.3', info: { title: `Spec ${n}`, version: '1' }, paths: {} });
      expect((await carol.client.post(`/v1/orgs/${carolOrg}/openapi`, { slug: `backlog-${n}`, source: { text } })).status).toBe(201);
    }
    // Long enough for the parked jobs to be turned away several times.
    await new Promise((resolve) => setTimeout(resolve, 8_000));
    expect(await count()).toBe(0);

    const freed = Date.now();
    heldForCarol[0].writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ openapi: '3.0.3', info: { title: 'First', version: '1' }, paths: {} }));
    // Called back as turns free, the backlog drains at the rate of its turns. (This case does not
    // reproduce the stall the fault run found, where parked jobs waited on BullMQ's 5 s drain delay
    // after a Redis restart: here the old timer-only parking drained it too. The fault run in CI does.)
    await until('all nine processed', async () => (await count()) === 9, 30_000);
    expect(Date.now() - freed).toBeLessThan(15_000);
  });
});
