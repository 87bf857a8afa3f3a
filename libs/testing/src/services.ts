import { mkdtempSync, rmSync } from 'node:fs';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RunningPostgres, startEmbeddedPostgres } from '../../../src/embedded/embedded-postgres';

const LOCAL_POSTGRES = 'postgres://postgres@127.0.0.1:5432/postgres';
const LOCAL_REDIS = 'redis://127.0.0.1:6379';

interface Started {
  postgres?: RunningPostgres;
  dir?: string;
}
const started: Started = {};

/**
 * Decides which services this run uses, before jest forks its workers (they inherit the
 * environment set here):
 * - PostgreSQL: TEST_DATABASE_URL when given, else a server on 127.0.0.1:5432 when one answers,
 *   else an embedded PostgreSQL in a temporary directory. TEST_EMBEDDED=1 forces the embedded one.
 * - Redis: REDIS_URL when given, else 127.0.0.1:6379 when it answers; none under TEST_EMBEDDED=1.
 *   Without Redis the jobs run on the PostgreSQL backend and Redis-only tests are skipped.
 */
export async function startTestServices(): Promise<void> {
  const embeddedOnly = process.env.TEST_EMBEDDED === '1';
  if (embeddedOnly || (!process.env.TEST_DATABASE_URL && !(await answers(LOCAL_POSTGRES, 5432)))) {
    started.dir = mkdtempSync(join(tmpdir(), 'docs-test-pg-'));
    // Shared by every jest worker, each running apps with job workers (the PostgreSQL job backend
    // holds connections of its own) and CLI processes: PostgreSQL's default of 100 ran out once.
    started.postgres = await startEmbeddedPostgres(join(started.dir, 'postgres'), { maxConnections: 300 });
    process.env.TEST_DATABASE_URL = started.postgres.url('postgres');
  } else {
    process.env.TEST_DATABASE_URL ??= LOCAL_POSTGRES;
  }
  if (embeddedOnly) {
    delete process.env.REDIS_URL;
    delete process.env.TEST_REDIS_URL;
    process.env.JOBS_BACKEND = 'postgres';
    return;
  }
  const redisUrl = process.env.REDIS_URL ?? LOCAL_REDIS;
  if (await answers(redisUrl, 6379)) {
    process.env.REDIS_URL = redisUrl;
    process.env.TEST_REDIS_URL = redisUrl;
  } else {
    delete process.env.TEST_REDIS_URL;
  }
}

export async function stopTestServices(): Promise<void> {
  await started.postgres?.stop();
  if (started.dir) rmSync(started.dir, { recursive: true, force: true });
}

/** The Redis this run may use, or undefined when there is none (Redis-only tests are then skipped). */
export function testRedisUrl(): string | undefined {
  return process.env.TEST_REDIS_URL || undefined;
}

export const REDIS_SKIP_REASON = 'skipped: needs Redis (set REDIS_URL or run Redis on 127.0.0.1:6379)';

/** `describe` for tests that need Redis: skipped, saying why, when this run has none. */
export function describeWithRedis(name: string, body: () => void): void {
  if (testRedisUrl()) {
    describe(name, body);
  } else {
    describe.skip(`${name} [${REDIS_SKIP_REASON}]`, body);
  }
}

function answers(url: string, defaultPort: number): Promise<boolean> {
  const parsed = new URL(url);
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('error', () => done(false));
    socket.connect(Number(parsed.port || defaultPort), parsed.hostname, () => done(true));
  });
}
