import { randomBytes } from 'node:crypto';
import { Client, Pool } from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../../src/database/data-source-options';

/** The server the tests use; TEST_DATABASE_URL (set by the global setup when not given) points at its maintenance database. */
export function testServerUrl(): string {
  return process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
}

/**
 * Every name a test run creates (databases, queue prefixes) carries this run id, so two runs on one
 * server, or a run beside a developer's own databases, never touch each other's. The global setup
 * picks it once and passes it to the test workers through the environment.
 */
export function testRunId(): string {
  if (!process.env.TEST_RUN_ID) process.env.TEST_RUN_ID = randomBytes(4).toString('hex');
  // Letters and digits only: the run's names are matched by the prefix `docs_test_<run>_`.
  if (!/^[a-z0-9]+$/.test(process.env.TEST_RUN_ID)) throw new Error('TEST_RUN_ID must be lower-case letters and digits');
  return process.env.TEST_RUN_ID;
}

export function templateDatabaseName(): string {
  return `docs_test_${testRunId()}_template`;
}

/** A database or queue-prefix name unique to this run and this call: `docs_test_<run>_<label>_<random>`. */
export function uniqueTestName(label = 'db'): string {
  return `docs_test_${testRunId()}_${label}_${randomBytes(4).toString('hex')}`;
}

export function databaseUrl(name: string): string {
  const url = new URL(testServerUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

async function admin<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: testServerUrl() });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Builds the migrated template every test database of this run is cloned from. */
export async function buildTemplateDatabase(): Promise<void> {
  const template = templateDatabaseName();
  await admin((client) => client.query(`CREATE DATABASE ${template}`));
  const dataSource = new DataSource(dataSourceOptions(databaseUrl(template), 1));
  await dataSource.initialize();
  try {
    await dataSource.runMigrations();
  } finally {
    await dataSource.destroy();
  }
}

export async function dropTemplateDatabase(): Promise<void> {
  await dropTestDatabase(templateDatabaseName());
}

/**
 * Drops whatever this run left behind (a test file that crashed or timed out before its afterAll);
 * the template goes last, since the others were cloned from it. Returns the names it dropped.
 */
export async function dropRunDatabases(): Promise<string[]> {
  const names = await admin(async (client) => {
    const { rows } = await client.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE starts_with(datname, $1)`, [`docs_test_${testRunId()}_`]);
    return rows.map((row) => row.datname);
  });
  const template = templateDatabaseName();
  for (const name of names.filter((n) => n !== template)) await dropTestDatabase(name);
  await dropTestDatabase(template);
  return names;
}

/** A fresh, migrated database for one test file, cloned from this run's template. */
export async function createTestDatabase(name: string): Promise<string> {
  assertOwnName(name);
  await admin((client) => client.query(`CREATE DATABASE ${name} TEMPLATE ${templateDatabaseName()}`));
  return databaseUrl(name);
}

/**
 * A plain `pg` pool on a test database. Its `end()` resolves before the clients' sockets have
 * closed, so the `DROP DATABASE ... WITH (FORCE)` that follows can terminate a backend that has not
 * yet read its client's goodbye; the client then reports "terminating connection due to
 * administrator command" as an idle error, which a pool without a listener throws (it once
 * failed a CI run). Nothing is lost by ignoring it: the pool has already let that client go.
 */
export function openTestPool(url: string, max = 3): Pool {
  const pool = new Pool({ connectionString: url, max });
  pool.on('error', () => undefined);
  return pool;
}

/** Drops a database this run created; refuses any other name, so a bug here cannot drop someone's data. */
export async function dropTestDatabase(name: string): Promise<void> {
  assertOwnName(name);
  await admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
}

function assertOwnName(name: string): void {
  if (!name.startsWith(`docs_test_${testRunId()}_`) || !/^[a-z0-9_]+$/.test(name)) {
    throw new Error(`refusing to touch database ${name}: not created by test run ${testRunId()}`);
  }
}

/** The advisory lock a live run holds on its server: `npm run test:clean` leaves a run alone while it is held. */
export const RUN_LOCK_SQL = `SELECT pg_advisory_lock(hashtext('docs_test_run:' || $1))`;
let runLock: Client | undefined;

/** Held from the global setup to the teardown, on a connection of the jest process itself. */
export async function holdRunLock(): Promise<void> {
  runLock = new Client({ connectionString: testServerUrl() });
  await runLock.connect();
  await runLock.query(RUN_LOCK_SQL, [testRunId()]);
}

export async function releaseRunLock(): Promise<void> {
  await runLock?.end().catch(() => undefined);
  runLock = undefined;
}
