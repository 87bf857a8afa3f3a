import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { TestApp } from '@app/testing';

const ROOT = join(__dirname, '..', '..');

export { until } from './waiting';

/**
 * The real worker (`src/worker.ts`) in a child process on the test app's database and job backend,
 * for tests that SIGKILL it; `env` adds or overrides variables. `exited` settles when it dies.
 */
export function spawnWorker(t: TestApp, env: Record<string, string> = {}): { child: ChildProcess; exited: Promise<unknown> } {
  const variables: Record<string, string> = {
    ...(process.env as Record<string, string>),
    TS_NODE_PROJECT: join(ROOT, 'tsconfig.json'),
    DATABASE_URL: t.config.databaseUrl,
    DATABASE_DIRECT_URL: t.config.databaseDirectUrl,
    DB_PREPARED_STATEMENTS: String(t.config.dbPreparedStatements),
    REDIS_URL: t.config.redisUrl,
    JOBS_BACKEND: t.config.jobsBackend,
    JOBS_PG_SCHEMA: t.config.jobsPgSchema,
    QUEUE_PREFIX: t.config.queuePrefix,
    FILES_DIR: t.config.filesDir,
    JOBS_LOCK_MS: '2000',
    JOBS_STALLED_INTERVAL_MS: '1000',
    LOG_LEVEL: 'silent',
    ...env,
  };
  delete variables.METRICS_PORT;
  const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register', join(ROOT, 'src/worker.ts')], {
    cwd: ROOT,
    env: variables,
    stdio: 'ignore',
  });
  return { child, exited: new Promise((resolve) => child.on('exit', resolve)) };
}
