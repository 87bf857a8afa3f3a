import { Pool } from 'pg';
import { defineJob } from '../../src/jobs/job-definition';
import { JobHandler } from '../../src/jobs/job-handler';

/** Jobs of the job-platform tests only; they record what they do in the test's database. */
const common = { queue: 'test-jobs', attempts: 3, backoff: { type: 'fixed' as const, delayMs: 50 }, timeoutMs: 20000, concurrency: 2 };
export const RecordJob = defineJob<{ key: string }>({ ...common, name: 'test-record' });
export const FlakyJob = defineJob<{ key: string }>({ ...common, name: 'test-flaky' });
export const SlowJob = defineJob<{ key: string }>({ ...common, name: 'test-slow' });
/** Meets a database outage (a refused connection) on its first five runs: more than its three attempts. */
export const OutageJob = defineJob<{ key: string }>({ ...common, name: 'test-outage' });
export const TEST_JOBS = [RecordJob, FlakyJob, SlowJob, OutageJob];

export const TABLES = `
  CREATE TABLE IF NOT EXISTS test_job_runs (key text NOT NULL, job text NOT NULL, pid int NOT NULL, attempt int NOT NULL);
  CREATE TABLE IF NOT EXISTS test_job_effects (key text PRIMARY KEY, job text NOT NULL);`;

/**
 * Every run is counted in test_job_runs; the effect is written once per key (idempotent: a
 * second run of the same work changes nothing more). `hang` makes the slow job never finish, so a
 * test can kill the process running it.
 */
export function testHandlers(pool: Pool, options: { hang?: boolean } = {}): Map<string, JobHandler<{ key: string }>> {
  const record = (job: string) => async (payload: { key: string }, attempt: number) => {
    await pool.query('INSERT INTO test_job_runs (key, job, pid, attempt) VALUES ($1, $2, $3, $4)', [payload.key, job, process.pid, attempt]);
  };
  const effect = async (job: string, key: string) => {
    await pool.query('INSERT INTO test_job_effects (key, job) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING', [key, job]);
    return { key };
  };
  return new Map<string, JobHandler<{ key: string }>>([
    [RecordJob.name, { handle: async (p, c) => (await record(RecordJob.name)(p, c.attempt), effect(RecordJob.name, p.key)) }],
    [
      FlakyJob.name,
      {
        handle: async (p, c) => {
          await record(FlakyJob.name)(p, c.attempt);
          if (c.attempt < 2) throw new Error('first attempt fails');
          return effect(FlakyJob.name, p.key);
        },
      },
    ],
    [
      OutageJob.name,
      {
        handle: async (p, c) => {
          await record(OutageJob.name)(p, c.attempt);
          const { rows } = await pool.query('SELECT count(*)::int AS n FROM test_job_runs WHERE key = $1', [p.key]);
          if (rows[0].n <= 5) throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
          return effect(OutageJob.name, p.key);
        },
      },
    ],
    [
      SlowJob.name,
      {
        handle: async (p, c) => {
          await record(SlowJob.name)(p, c.attempt);
          if (options.hang) await new Promise(() => undefined);
          return effect(SlowJob.name, p.key);
        },
      },
    ],
  ]);
}
