import { TestApp, TestUser, describeWithRedis } from '@app/testing';
import { TestWorker } from '@app/testing/test-worker';
import { Transactions } from '../src/database/transactions';
import { JobOutbox } from '../src/jobs/outbox/job-outbox';
import { ProcessOpenAPISpec } from '../src/modules/openapi/application/openapi.jobs';
import { OwnRedis } from './support/own-redis';
import { until } from './support/worker-process';

const PETSTORE = JSON.stringify({
  openapi: '3.0.3',
  info: { title: 'Pets', version: '1.0.0' },
  paths: { '/pets': { get: { operationId: 'listPets', responses: { '200': { description: 'The pets' } } } } },
});

/** Background work is staged in the transaction that records it and queued after the commit (the job outbox). */
describe('Job outbox', () => {
  let t: TestApp;
  let alice: TestUser;
  let org: string;

  beforeAll(async () => {
    t = await TestApp.start({ jobsOutboxSweepMs: 1000 });
    alice = await t.user('Alice');
    org = await t.organization(alice);
  });
  afterAll(() => t.close());

  const staged = async () => (await t.dataSource.query(`SELECT job_name, job_id FROM job_outbox`)) as Array<{ job_name: string; job_id: string }>;
  const spec = async (slug: string) => (await t.dataSource.query(`SELECT * FROM openapi_specs WHERE organization_id = $1 AND slug = $2`, [org, slug]))[0];

  it('a request that starts work leaves nothing staged once the queue has its job', async () => {
    expect((await alice.client.post(`/v1/orgs/${org}/openapi`, { slug: 'released', source: { text: PETSTORE } })).status).toBe(201);
    expect(await staged()).toEqual([]);
  });

  it('a job staged in a transaction that rolls back is never staged', async () => {
    const outbox = t.get<JobOutbox>(JobOutbox);
    await expect(
      t.get<Transactions>(Transactions).run(async (tx) => {
        await outbox.stage(tx, ProcessOpenAPISpec, [{ payload: { specId: 'none', generation: 1 } }]);
        throw new Error('the use case failed after staging');
      }),
    ).rejects.toThrow('the use case failed after staging');
    expect(await staged()).toEqual([]);
  });

  it("work committed with its job but never queued (its process died in between) is queued by the worker's sweep and done once", async () => {
    expect((await alice.client.post(`/v1/orgs/${org}/openapi`, { slug: 'orphan', source: { text: PETSTORE } })).status).toBe(201);
    const { id } = await spec('orphan');
    // What a process dying right after the commit leaves: a new generation asked for, its job staged, not queued.
    await t.get<Transactions>(Transactions).run(async (tx) => {
      const [[row]] = await tx.query(`UPDATE openapi_specs SET generation = generation + 1, processing_state = 'pending' WHERE id = $1 RETURNING generation`, [id]);
      await t.get<JobOutbox>(JobOutbox).stage(tx, ProcessOpenAPISpec, [{ payload: { specId: id, generation: row.generation }, options: { jobId: `${id}-${row.generation}` } }]);
    });
    // A job a later version no longer registers cannot run: the sweep drops it rather than retrying it forever.
    await t.dataSource.query(`INSERT INTO job_outbox (id, job_name, payload, job_id) VALUES ('gone', 'no-longer-registered', '{}', 'gone')`);
    expect(await staged()).toEqual(expect.arrayContaining([{ job_name: 'process-openapi-spec', job_id: `${id}-2` }]));

    const worker = await TestWorker.start(t);
    try {
      const done = await until('the sweep to queue the job and the worker to process generation 2', async () => {
        const row = await spec('orphan');
        return row.generation === 2 && row.processing_state === 'complete' && row;
      }, 30000);
      expect(done.last_version_id).toEqual(expect.any(String));
      await until('the outbox to be empty', async () => (await staged()).length === 0, 10000);
      expect(Number((await t.dataSource.query(`SELECT count(*) FROM openapi_spec_versions WHERE spec_id = $1`, [id]))[0].count)).toBe(1);
      // Moving jobs to the queue is the job machinery's bookkeeping, not a change anyone made: not audited.
      expect(await t.dataSource.query(`SELECT id FROM audit_entries WHERE action = 'job:flush-job-outbox'`)).toEqual([]);
    } finally {
      await worker.close();
    }
  }, 60000);
});

describeWithRedis('Job outbox with Redis down', () => {
  let redis: OwnRedis;
  let t: TestApp;
  let alice: TestUser;
  let org: string;

  beforeAll(async () => {
    redis = await OwnRedis.create();
    await redis.start();
    t = await TestApp.start({ jobsBackend: 'redis', redisUrl: redis.url, jobsEnqueueWaitMs: 500, jobsOutboxSweepMs: 1000 });
    alice = await t.user('Alice');
    org = await t.organization(alice);
  });
  afterAll(async () => {
    await redis.start(); // the app closes its queue connections cleanly only when Redis answers
    await t.close();
    await redis.stop();
  });

  it('a request that starts work is answered while the queue is down; the job reaches it when it is back and the work is done', async () => {
    await redis.stop();
    const started = Date.now();
    const created = await alice.client.post(`/v1/orgs/${org}/openapi`, { slug: 'while-down', source: { text: PETSTORE } });
    expect(created.status).toBe(201);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(created.body.processingState).toBe('pending');
    expect(await t.dataSource.query(`SELECT job_name FROM job_outbox`)).toEqual([{ job_name: 'process-openapi-spec' }]);

    await redis.start(); // empty: whatever was queued before it stopped is gone
    const worker = await TestWorker.start(t);
    try {
      const done = await until('the spec to be processed', async () => {
        const [row] = await t.dataSource.query(`SELECT processing_state, last_version_id FROM openapi_specs WHERE slug = 'while-down'`);
        return row.processing_state === 'complete' && row;
      }, 30000);
      expect(done.last_version_id).toEqual(expect.any(String));
      await until('the outbox to be empty', async () => (await t.dataSource.query(`SELECT id FROM job_outbox`)).length === 0, 10000);
    } finally {
      await worker.close();
    }
  }, 60000);
});
