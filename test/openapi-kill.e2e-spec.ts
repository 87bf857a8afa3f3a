import { readFileSync } from 'node:fs';
import { createServer, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { TestApp, TestUser } from '@app/testing';
import { TestWorker } from '@app/testing/test-worker';
import { spawnWorker, until } from './support/worker-process';

const PETSTORE = readFileSync(join(__dirname, 'fixtures', 'openapi', 'petstore.json'), 'utf8');
const SCHEMAS = readFileSync(join(__dirname, 'fixtures', 'openapi', 'schemas.yaml'), 'utf8');

describe('OpenAPI processing: a worker SIGKILLed mid-run', () => {
  let t: TestApp;
  let alice: TestUser;
  let org: string;
  const held: ServerResponse[] = [];
  let holding = true;
  let requests = 0;
  const server = createServer((req, res) => {
    requests++;
    if (req.url === '/schemas.yaml') return res.end(SCHEMAS);
    if (holding) return void held.push(res); // the first worker dies while waiting for this answer
    res.end(PETSTORE);
  });
  let base: string;

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    t = await TestApp.start({ outboundAllowPrivate: true, jobsLockMs: 2000, jobsStalledIntervalMs: 1000 });
    alice = await t.user('Alice');
    org = await t.organization(alice);
  });
  afterAll(async () => {
    for (const res of held) res.destroy();
    server.close();
    await t.close();
  });

  const row = async () => (await t.dataSource.query(`SELECT * FROM openapi_specs WHERE organization_id = $1`, [org]))[0];
  const versions = async () => Number((await t.dataSource.query(`SELECT count(*) FROM openapi_spec_versions`))[0].count);

  it('leaves the spec in progress with no version; the next worker processes it once, completely', async () => {
    const { child, exited } = spawnWorker(t, { OUTBOUND_ALLOW_PRIVATE: 'true' });
    try {
      expect((await alice.client.post(`/v1/orgs/${org}/openapi`, { slug: 'petstore', source: { url: `${base}/petstore.json` } })).status).toBe(201);
      await until('the child to fetch the source', async () => held.length > 0 && (await row()).processing_state === 'progress', 120000);
      child.kill('SIGKILL');
      await exited;
      expect(await row()).toMatchObject({ processing_state: 'progress', last_version_id: null });
      expect(await versions()).toBe(0);

      holding = false;
      const worker = await TestWorker.start(t);
      try {
        const done = await until('the processing to finish', async () => ((await row()).processing_state === 'complete' ? row() : undefined), 60000);
        expect(done.last_process_error_code).toBeNull();
        expect(done.last_version_id).toEqual(expect.any(String));
        expect(await versions()).toBe(1);
        expect(requests).toBeGreaterThanOrEqual(2);
      } finally {
        await worker.close();
      }
    } finally {
      child.kill('SIGKILL');
    }
  }, 240000);
});
