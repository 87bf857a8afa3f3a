import Redis from 'ioredis';
import request from 'supertest';
import { Pool } from 'pg';
import { RunningRedisCluster, TestApp, TestUser, createTestDatabase, dropTestDatabase, openTestPool, redisClusterAvailable, startRedisCluster, uniqueTestName } from '@app/testing';
import { BullJobPort } from '../src/jobs/bullmq/bull-job-port';
import { JobBackend, JobsConfig } from '../src/jobs/bullmq/job-backend';
import { JobRunner } from '../src/jobs/bullmq/job-runner';
import { RecordJob, TABLES, TEST_JOBS, testHandlers } from './support/test-jobs';
import { until } from './support/waiting';

const describeWithCluster = redisClusterAvailable() ? describe : describe.skip;

/**
 * BullMQ, the rate limiter and the idempotency store on a real Redis Cluster (REDIS_CLUSTER_NODES):
 * three masters started for this file, one of them killed while jobs run.
 */
describeWithCluster('Redis Cluster (REDIS_CLUSTER_NODES)', () => {
  const dbName = uniqueTestName('cluster');
  let cluster: RunningRedisCluster;
  let pool: Pool;
  let config: JobsConfig;
  let backend: JobBackend;
  let port: BullJobPort;
  let runner: JobRunner;

  const clusterConfig = () => ({ nodes: cluster.nodes, tls: false });
  /** The keys one node holds (not the cluster's view: where they really are). */
  const keysOn = async (node: { host: string; port: number }, pattern: string) => {
    const redis = new Redis({ host: node.host, port: node.port });
    try {
      return await redis.keys(pattern);
    } finally {
      redis.disconnect();
    }
  };
  const effects = async () => Number((await pool.query('SELECT count(*) FROM test_job_effects')).rows[0].count);
  const effectKeys = async () => new Set((await pool.query<{ key: string }>('SELECT key FROM test_job_effects')).rows.map((row) => row.key));

  beforeAll(async () => {
    cluster = await startRedisCluster();
    const databaseUrl = await createTestDatabase(dbName);
    pool = openTestPool(databaseUrl);
    await pool.query(TABLES);
    config = { backend: 'redis', redisUrl: 'redis://unused.invalid:6379', redisCluster: clusterConfig(), databaseUrl, prefix: dbName, pgSchema: 'jobs', lockMs: 1000, stalledIntervalMs: 500 };
    backend = new JobBackend(config);
    port = new BullJobPort(backend);
    runner = new JobRunner(backend, TEST_JOBS, testHandlers(pool));
    await runner.start();
  }, 60_000);
  afterAll(async () => {
    await runner?.close();
    await backend?.close();
    await pool?.end();
    await cluster?.stop();
    await dropTestDatabase(dbName);
  });

  it("runs every job once, each queue's keys on one slot", async () => {
    const ids = await Promise.all(Array.from({ length: 20 }, (_, i) => port.enqueue(RecordJob, { key: `once-${i}` })));
    await until('20 jobs to run', async () => ((await effects()) >= 20 ? true : undefined), 30_000, 100);
    const runs = (await pool.query<{ key: string; n: string }>("SELECT key, count(*) AS n FROM test_job_runs WHERE key LIKE 'once-%' GROUP BY key")).rows;
    expect(runs).toHaveLength(20);
    expect(runs.every((row) => row.n === '1')).toBe(true);
    expect(new Set(ids.map((job) => job.id)).size).toBe(20);
    // The queue's keys live on the master of its hash tag's slot, and nowhere else.
    const owner = await cluster.masterOf(`{${RecordJob.queue}}`);
    for (const node of cluster.nodes) {
      const keys = await keysOn(node, `${dbName}:*`);
      if (node.port === owner.port) expect(keys.length).toBeGreaterThan(0);
      else expect(keys).toEqual([]);
    }
  });

  it("loses no acknowledged job when the queue's master is killed mid-run and restarted", async () => {
    const owner = await cluster.masterOf(`{${RecordJob.queue}}`);
    const acknowledged: string[] = [];
    let stop = false;
    // Enqueues without pause; a job counts once its enqueue resolved (the master wrote it to its log).
    const producer = (async () => {
      for (let i = 0; !stop; i++) {
        const key = `kill-${i}`;
        await port.enqueue(RecordJob, { key }).then(() => acknowledged.push(key), () => undefined);
      }
    })();
    await until('some jobs acknowledged', () => acknowledged.length >= 20 || undefined, 20_000, 20);
    await cluster.kill(owner);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await cluster.restart(owner);
    await until('more jobs acknowledged after the restart', () => acknowledged.length >= 60 || undefined, 60_000, 50);
    stop = true;
    await producer;
    await until(
      'every acknowledged job to run',
      async () => {
        const done = await effectKeys();
        return acknowledged.every((key) => done.has(key)) || undefined;
      },
      60_000,
      200,
    );
  }, 150_000);

  describe('the API on the cluster', () => {
    let t: TestApp;
    let alice: TestUser;

    beforeAll(async () => {
      t = await TestApp.start({ jobsBackend: 'redis', redisCluster: clusterConfig() });
      alice = await t.user('Alice');
    });
    afterAll(() => t?.close());

    it('keeps idempotency keys there: a repeated POST is answered from the store', async () => {
      const post = () => request(t.app.getHttpServer()).post('/v1/orgs').set('Authorization', `Bearer ${alice.token}`).set('Idempotency-Key', 'cluster-key-1').send({ title: 'Once' });
      const first = await post();
      const again = await post();
      expect(first.status).toBe(201);
      expect([again.status, again.body.id]).toEqual([201, first.body.id]);
      expect((await alice.client.get<any>('/v1/orgs')).body.items.filter((org: any) => org.title === 'Once')).toHaveLength(1);
      const stored = await Promise.all(cluster.nodes.map((node) => keysOn(node, `${t.config.queuePrefix}:idem:*`)));
      expect(stored.flat()).toHaveLength(1);
    });

    it('counts rate limits there, one hash tag per budget', async () => {
      const limited = await TestApp.start({
        jobsBackend: 'redis',
        redisCluster: clusterConfig(),
        rateLimits: { ...t.config.rateLimits, enabled: true, tokenReads: 5 },
      });
      try {
        const bob = await limited.user('Bob');
        const statuses: number[] = [];
        for (let i = 0; i < 30 && !statuses.includes(429); i++) statuses.push((await bob.client.get('/v1/user')).status);
        expect(statuses).toContain(429);
        const owner = await cluster.masterOf(`{${limited.config.queuePrefix}:rl:tokenReads}`);
        expect(await keysOn(owner, `{${limited.config.queuePrefix}:rl:tokenReads}:*`)).not.toEqual([]);
      } finally {
        await limited.close();
      }
    });

    it('answers /health with Redis up', async () => {
      expect((await t.client().get('/health')).status).toBe(200);
    });
  });
});
