import { mkdtempSync, rmSync } from 'node:fs';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RunningPostgres, startEmbeddedPostgres } from '../../../src/embedded/embedded-postgres';
import { RunningPgBouncer, startPgBouncer } from './pgbouncer';

const LOCAL_POSTGRES = 'postgres://postgres@127.0.0.1:5432/postgres';
const LOCAL_REDIS = 'redis://127.0.0.1:6379';

interface Started {
  postgres?: RunningPostgres;
  pgBouncer?: RunningPgBouncer;
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
 * - TEST_PGBOUNCER=1: a PgBouncer in transaction mode in front of that PostgreSQL; every TestApp
 *   then queries through it (DATABASE_URL), as a production install behind one does.
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
  if (process.env.TEST_PGBOUNCER === '1') {
    started.pgBouncer = await startPgBouncer(process.env.TEST_DATABASE_URL);
    process.env.TEST_POOLED_DATABASE_URL = started.pgBouncer.via(process.env.TEST_DATABASE_URL);
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
  await started.pgBouncer?.stop();
  await started.postgres?.stop();
  if (started.dir) rmSync(started.dir, { recursive: true, force: true });
}

/** The Redis this run may use, or undefined when there is none (Redis-only tests are then skipped). */
export function testRedisUrl(): string | undefined {
  return process.env.TEST_REDIS_URL || undefined;
}

/** `url` (a test database on the run's server) through the run's PgBouncer, when TEST_PGBOUNCER=1 started one. */
export function pooledTestUrl(url: string): string | undefined {
  const pooled = process.env.TEST_POOLED_DATABASE_URL;
  if (!pooled) return undefined;
  const through = new URL(url);
  const pooler = new URL(pooled);
  through.hostname = pooler.hostname;
  through.port = pooler.port;
  return through.toString();
}

/** The direct address of a test database that may be given through the run's PgBouncer. */
export function directTestUrl(url: string): string {
  const pooled = process.env.TEST_POOLED_DATABASE_URL;
  const given = new URL(url);
  if (!pooled || given.port !== new URL(pooled).port) return url;
  const server = new URL(process.env.TEST_DATABASE_URL!);
  given.hostname = server.hostname;
  given.port = server.port;
  return given.toString();
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
