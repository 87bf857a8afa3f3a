import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import Redis from 'ioredis';
import { Pool } from 'pg';
import { Logger } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { createTestDatabase, openTestPool, dropTestDatabase, removeQueueKeys, testRedisUrl, REDIS_SKIP_REASON, uniqueTestName } from '@app/testing';
import { BullJobPort } from '../src/jobs/bullmq/bull-job-port';
import { JobBackend, JobsConfig } from '../src/jobs/bullmq/job-backend';
import { JobOperations } from '../src/jobs/bullmq/job-operations';
import { JobRunner } from '../src/jobs/bullmq/job-runner';
import { HandlesJob } from '../src/jobs/job-handler';
import { JobsWorkerModule } from '../src/jobs/jobs-worker.module';
import { FlakyJob, OutageJob, RecordJob, SlowJob, TABLES, TEST_JOBS, testHandlers } from './support/test-jobs';
import { until } from './support/waiting';

const ROOT = join(__dirname, '..');
// The runner's log lines, captured: every run must log its start and end with its id, never its payload.
const logged: string[] = [];
const capture = (message: unknown, ...rest: unknown[]) => void logged.push([message, ...rest].map((p) => (typeof p === 'string' ? p : JSON.stringify(p))).join(' '));
const captureLogs = () => Logger.overrideLogger({ log: capture, warn: capture, error: capture, debug: () => undefined, verbose: () => undefined });
captureLogs();

const backends: ('postgres' | 'redis')[] = ['postgres', 'redis'];

/** The same suite on both backends: the port's promises hold whatever BullMQ runs on. */
describe.each(backends)('job platform on %s', (backend) => {
  const skip = backend === 'redis' && !testRedisUrl();
  const run = skip ? it.skip : it;
  if (skip) it.skip(REDIS_SKIP_REASON, () => undefined);

  const dbName = uniqueTestName('jobs');
  let config: JobsConfig;
  let pool: Pool;
  let jobsBackend: JobBackend;
  let port: BullJobPort;
  let runner: JobRunner | undefined;

  beforeAll(async () => {
    if (skip) return;
    const databaseUrl = await createTestDatabase(dbName);
    config = {
      backend,
      redisUrl: testRedisUrl() ?? '',
      databaseUrl,
      prefix: dbName,
      pgSchema: 'jobs',
      // Short locks, so a killed worker's job is noticed in about a second.
      lockMs: 1000,
      stalledIntervalMs: 500,
      outageRetryMs: 100,
    };
    pool = openTestPool(databaseUrl);
    await pool.query(TABLES);
    jobsBackend = new JobBackend(config);
    port = new BullJobPort(jobsBackend);
  });

  beforeEach(() => captureLogs()); // a Nest testing module built by a test may have replaced it

  afterEach(async () => {
    await runner?.close();
    runner = undefined;
  });

  afterAll(async () => {
    if (skip) return;
    await jobsBackend.close();
    await pool.end();
    if (backend === 'redis') await removeQueueKeys(config.redisUrl, config.prefix);
    await dropTestDatabase(dbName);
  });

  const startRunner = async () => {
    runner = new JobRunner(jobsBackend, TEST_JOBS, testHandlers(pool));
    await runner.start();
  };
  const runs = async (key: string) => (await pool.query('SELECT * FROM test_job_runs WHERE key = $1 ORDER BY attempt', [key])).rows;
  const effects = async (key: string) => Number((await pool.query('SELECT count(*) FROM test_job_effects WHERE key = $1', [key])).rows[0].count);
  const finished = (id: string, job = RecordJob) =>
    until(`job ${id} to finish`, async () => {
      const status = await port.status(job, id);
      return status && ['completed', 'failed'].includes(status.state) ? status : undefined;
    });

  run('runs an enqueued job once, with its result and state readable through the port', async () => {
    await startRunner();
    const { id } = await port.enqueue(RecordJob, { key: 'k1' });
    const status = await finished(id);
    expect(status).toMatchObject({ id, name: RecordJob.name, state: 'completed', attemptsMade: expect.any(Number), result: { key: 'k1' } });
    expect(await runs('k1')).toHaveLength(1);
    expect(await effects('k1')).toBe(1);
    // The status of a job under another definition's name is not disclosed as this one.
    expect(await port.status(FlakyJob, id)).toBeUndefined();
    if (backend === 'redis') {
      // Every key of the queue carries the hash tag, so a Redis Cluster keeps the queue on one slot.
      const redis = new Redis(config.redisUrl);
      const keys = await redis.keys(`${config.prefix}:*`);
      redis.disconnect();
      expect(keys.length).toBeGreaterThan(0);
      expect(keys.every((key) => key.startsWith(`${config.prefix}:{${RecordJob.queue}}:`))).toBe(true);
    }
  });

  run('retries a failing job with its backoff until it succeeds', async () => {
    await startRunner();
    logged.length = 0;
    const { id } = await port.enqueue(FlakyJob, { key: 'k2' });
    const status = await finished(id, FlakyJob);
    expect(status.state).toBe('completed');
    expect((await runs('k2')).map((r) => r.attempt)).toEqual([1, 2]);
    expect(await effects('k2')).toBe(1);
    const lines = logged.filter((line) => line.includes(`test-flaky ${id} `));
    expect(lines).toEqual([
      expect.stringMatching(/attempt 1\) started/),
      expect.stringMatching(/"outcome":"retrying","durationMs":\d+.*attempt 1\) retrying in \d+ ms: first attempt fails/),
      expect.stringMatching(/attempt 2\) started/),
      expect.stringMatching(/"outcome":"completed","durationMs":\d+.*attempt 2\) completed in \d+ ms/),
    ]);
    expect(lines.join('\n')).not.toContain('k2'); // the payload stays out of the logs
  });

  run('spends no attempt on runs that met a dependency outage: five of them, then the job completes on its first attempt', async () => {
    await startRunner();
    const { id } = await port.enqueue(OutageJob, { key: 'k-outage' });
    const status = await finished(id, OutageJob);
    expect(status.state).toBe('completed');
    expect((await runs('k-outage')).map((r) => r.attempt)).toEqual([1, 1, 1, 1, 1, 1]);
    expect(await effects('k-outage')).toBe(1);
  });

  run('a second run of the same work changes nothing more; a repeated job id is enqueued once', async () => {
    await startRunner();
    const first = await port.enqueue(RecordJob, { key: 'k3' });
    const second = await port.enqueue(RecordJob, { key: 'k3' });
    await finished(first.id);
    await finished(second.id);
    expect(await runs('k3')).toHaveLength(2);
    expect(await effects('k3')).toBe(1);

    const a = await port.enqueue(RecordJob, { key: 'k4' }, { jobId: 'dedupe-k4' });
    const b = await port.enqueue(RecordJob, { key: 'k4' }, { jobId: 'dedupe-k4' });
    expect(b.id).toBe(a.id);
    await finished(a.id);
    expect(await runs('k4')).toHaveLength(1);
  });

  run('refuses a payload carrying a secret', async () => {
    await expect(port.enqueue(RecordJob, { key: 'k5', gitToken: 'ghp_x' } as { key: string })).rejects.toThrow(/looks like a secret/);
  });

  run('a worker SIGKILLed mid-job loses nothing: another worker picks the job up and completes it once', async () => {
    const child: ChildProcess = spawn(
      process.execPath,
      ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register', join(ROOT, 'test/support/job-worker.child.ts')],
      { cwd: ROOT, env: { ...process.env, TS_NODE_PROJECT: join(ROOT, 'tsconfig.json'), TEST_JOBS_CONFIG: JSON.stringify(config) }, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const exited = new Promise((resolve) => child.on('exit', resolve));
    try {
      const { id } = await port.enqueue(SlowJob, { key: 'k6' });
      const started = await until('the child to start the job', async () => (await runs('k6')).find((r) => r.pid === child.pid), 60000);
      expect(started.attempt).toBe(1);
      child.kill('SIGKILL');
      await exited;
      expect(await effects('k6')).toBe(0);

      await startRunner();
      const status = await finished(id, SlowJob);
      expect(status.state).toBe('completed');
      const all = await runs('k6');
      expect(all.filter((r) => r.pid === process.pid)).toHaveLength(1);
      expect(await effects('k6')).toBe(1);
    } finally {
      child.kill('SIGKILL');
    }
  }, 90000);

  run('lists, retries and removes jobs for the operator', async () => {
    const operations = new JobOperations(jobsBackend, [RecordJob.queue]);
    // No handler for the record job in this runner: each attempt fails until the job is failed.
    runner = new JobRunner(jobsBackend, TEST_JOBS, new Map());
    await runner.start();
    const { id } = await port.enqueue(RecordJob, { key: 'k7' });
    await until('the job to fail', async () => (await port.status(RecordJob, id))?.state === 'failed');
    const failed = await operations.list('failed');
    expect(failed.map((j) => j.id)).toContain(id);
    await runner.close();

    await startRunner();
    await operations.retry(id);
    expect((await finished(id)).state).toBe('completed');
    await expect(operations.retry(id)).rejects.toThrow(/only failed jobs/);
    await operations.remove(id);
    expect(await port.status(RecordJob, id)).toBeUndefined();
  });

  run('the worker refuses to start when a handler has no registration', async () => {
    @HandlesJob(RecordJob)
    class UnregisteredHandler {
      async handle() {
        return null;
      }
    }
    const moduleRef = await Test.createTestingModule({ imports: [JobsWorkerModule], providers: [UnregisteredHandler] })
      .useMocker((token) => (token === JobBackend ? jobsBackend : undefined))
      .compile();
    const refusal = moduleRef.init();
    await expect(refusal).rejects.toThrow(/refuses to start: .*job "purge-deleted-spaces" is registered but has no handler/);
    await expect(refusal).rejects.toThrow(/a handler for "test-record" exists but the job is not registered/);
    await moduleRef.close().catch(() => undefined);
  });
});
