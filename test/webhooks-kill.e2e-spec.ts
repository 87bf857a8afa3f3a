import { randomBytes } from 'node:crypto';
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { TestApp, TestUser } from '@app/testing';
import { TestWorker } from '@app/testing/test-worker';
import { spawnWorker, until } from './support/worker-process';

const EVENTS = 40;

describe('Webhooks: a worker SIGKILLed mid-dispatch', () => {
  let t: TestApp;
  let owner: TestUser;
  let org: string;
  let space: string;
  const secretsKey = randomBytes(32).toString('base64');
  /** Event ids the receiver got, in order (repeats included). */
  const received: string[] = [];
  const held: ServerResponse[] = [];
  let holding = true;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push(JSON.parse(Buffer.concat(chunks).toString('utf8')).id);
      if (holding) return void held.push(res); // the first worker dies while these wait
      res.end('ok');
    });
  });

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    t = await TestApp.start({ outboundAllowPrivate: true, secretsKey, jobsLockMs: 2000, jobsStalledIntervalMs: 1000, eventsSweepMs: 500 });
    owner = await t.user('Owner');
    org = await t.organization(owner);
    space = (await owner.client.post(`/v1/orgs/${org}/spaces`, { title: 'Watched' })).body.id;
  });
  afterAll(async () => {
    for (const res of held) res.destroy();
    server.closeAllConnections();
    server.close();
    await t.close();
  });

  it('loses no event and sends none twice except the ones in flight when it died', async () => {
    const port = (server.address() as AddressInfo).port;
    // The child worker runs on the wall clock (its daily prune removes dispatched events older than a week): so does the API here.
    t.clock.set(new Date());
    expect((await owner.client.post(`/v1/orgs/${org}/webhooks`, { url: `http://127.0.0.1:${port}/hook`, events: ['space.updated'] })).status).toBe(201);
    const { child, exited } = spawnWorker(t, { OUTBOUND_ALLOW_PRIVATE: 'true', SECRETS_KEY: secretsKey, EVENTS_SWEEP_MS: '500' });
    try {
      // Events keep committing while the child dispatches and delivers; it dies with deliveries in flight.
      for (let i = 0; i < EVENTS; i++) {
        expect((await owner.client.patch(`/v1/spaces/${space}`, { title: `Version ${i}` })).status).toBe(200);
        if (i === EVENTS / 2) await until('deliveries in flight', async () => held.length >= 3, 60000);
      }
      child.kill('SIGKILL');
      await exited;
    } finally {
      child.kill('SIGKILL');
    }
    const inFlight = new Set(received);
    for (const res of held) res.destroy();
    held.length = 0;
    holding = false;

    const events: Array<{ id: string }> = await t.dataSource.query(`SELECT id FROM domain_events WHERE organization_id = $1 AND type = 'space.updated'`, [org]);
    expect(events).toHaveLength(EVENTS);
    // The next worker picks up stalled jobs and undispatched events; its clock passes the leases of deliveries whose jobs were lost.
    t.clock.set(new Date(Date.now() + 10 * 60 * 1000));
    const worker = await TestWorker.start(t);
    try {
      await until('every event delivered', async () => {
        const [row] = await t.dataSource.query(`SELECT count(*) FILTER (WHERE status = 'delivered') AS delivered, count(*) AS total FROM webhook_deliveries`);
        return Number(row.delivered) === EVENTS && Number(row.total) === EVENTS;
      }, 90000);
    } finally {
      await worker.close();
    }
    const counts = new Map<string, number>();
    for (const id of received) counts.set(id, (counts.get(id) ?? 0) + 1);
    for (const { id } of events) expect(counts.get(id)).toBeGreaterThanOrEqual(1);
    const repeated = [...counts].filter(([, n]) => n > 1).map(([id]) => id);
    // At least once: only a delivery the dead worker had sent (and not recorded) goes again.
    for (const id of repeated) expect(inFlight.has(id)).toBe(true);
    expect(Math.max(...counts.values())).toBeLessThanOrEqual(2);
  }, 240000);
});
