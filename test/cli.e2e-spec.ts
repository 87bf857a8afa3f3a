import { ChildProcess, execFile, spawn } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { TestApp, createTestDatabase, dropTestDatabase, removeQueueKeys, testRedisUrl, uniqueTestName } from '@app/testing';
import { until } from './support/waiting';

const run = promisify(execFile);
const ROOT = join(__dirname, '..');
// The CLI builds its queues too (BullMQ writes their meta keys): never under the default `docs` prefix.
const CLI_QUEUE_PREFIX = uniqueTestName('cliq');

/** Runs a process entry point from source, as `npm run cli` runs it from dist. */
async function node(entry: string, args: string[], env: Record<string, string>) {
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register', join(ROOT, entry), ...args],
      { cwd: ROOT, env: { ...process.env, QUEUE_PREFIX: CLI_QUEUE_PREFIX, ...env, TS_NODE_PROJECT: join(ROOT, 'tsconfig.json') }, timeout: 120000 /* ts-node compiles the CLI on each run: ~10 s alone, several times that beside the whole suite on 2 cores */ },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** The port an API started with PORT=0 reports in its "API listening on port N" log line. */
function listeningPort(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    let seen = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /API listening on port (\d+)/.exec(seen);
      if (match) resolve(Number(match[1]));
    });
    child.on('exit', () => reject(new Error('the API exited before listening')));
  });
}

// Each test starts processes from source (ts-node): on a loaded 2-core machine that alone can take 20-30 s.
jest.setTimeout(240_000);

describe('operator CLI and process start-up', () => {
  const dbName = uniqueTestName('cli');
  let databaseUrl: string;
  let t: TestApp;

  beforeAll(async () => {
    databaseUrl = await createTestDatabase(dbName);
    t = await TestApp.start({ databaseUrl });
  });
  afterAll(async () => {
    await t.close();
    await dropTestDatabase(dbName);
    await removeQueueKeys(t.config.redisUrl, CLI_QUEUE_PREFIX);
  });

  it('never guesses a database: with no DATABASE_URL and no embedded server running it says so and exits 1', async () => {
    const env = { DATABASE_URL: '', DATA_DIR: join(ROOT, 'var', `no-server-${process.pid}`) };
    const result = await node('src/cli.ts', ['users:create', '--email', 'lost@example.com', '--name', 'Lost'], env);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(JSON.parse(result.stderr.trim()).error.message).toMatch(/No DATABASE_URL is set and no embedded server is running from .*no-server-/);
    // help exits 0; an unknown command says so.
    const help = await node('src/cli.ts', ['help'], env);
    expect([help.code, help.stdout]).toEqual([0, expect.stringContaining('users:create')]);
    const unknown = await node('src/cli.ts', ['users:frobnicate'], env);
    expect([unknown.code, unknown.stderr]).toEqual([2, expect.stringContaining('Unknown command "users:frobnicate"')]);
  });

  it('users:create prints the user and a working token; tokens:create issues another', async () => {
    const created = await node('src/cli.ts', ['users:create', '--email', 'Ada@Example.com', '--name', 'Ada'], { DATABASE_URL: databaseUrl });
    expect(created.code).toBe(0);
    const lines = created.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const output = JSON.parse(lines[0]);
    expect(output.user).toMatchObject({ object: 'user', displayName: 'Ada', email: 'ada@example.com' });
    expect(output.token).toMatch(/^gbp_/);
    const me = await t.client(output.token).get('/v1/user');
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(output.user.id);

    const again = await node('src/cli.ts', ['tokens:create', '--email', 'ada@example.com'], { DATABASE_URL: databaseUrl });
    expect(again.code).toBe(0);
    const second = JSON.parse(again.stdout.trim());
    expect(second.token).not.toBe(output.token);
    expect((await t.client(second.token).get('/v1/user')).body.id).toBe(output.user.id);
  });

  it('refuses a duplicate e-mail with a non-zero exit code and a clear message', async () => {
    await node('src/cli.ts', ['users:create', '--email', 'dup@example.com', '--name', 'First'], { DATABASE_URL: databaseUrl });
    const duplicate = await node('src/cli.ts', ['users:create', '--email', 'DUP@example.com', '--name', 'Second'], { DATABASE_URL: databaseUrl });
    expect(duplicate.code).not.toBe(0);
    expect(duplicate.stdout).toBe('');
    expect(JSON.parse(duplicate.stderr.trim()).error.message).toMatch(/already exists/);
  });

  it('refuses missing arguments', async () => {
    const missing = await node('src/cli.ts', ['users:create', '--email', 'x@example.com'], { DATABASE_URL: databaseUrl });
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toMatch(/--name is required/);
  });

  it('stops the API at start on an invalid variable, naming it', async () => {
    const bad = await node('src/main.ts', [], { DATABASE_URL: databaseUrl, PORT: 'not-a-port' });
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/PORT/);
    const badUrl = await node('src/worker.ts', [], { REDIS_URL: 'http://nope' });
    expect(badUrl.code).not.toBe(0);
    expect(badUrl.stderr).toMatch(/REDIS_URL/);
  });

  // Nest closes the app (connections, pools, queue workers) and then re-raises the signal, so a
  // clean stop ends by SIGTERM; a hung shutdown would end with code 1 from the shutdown timeout.
  it('API and worker shut down on SIGTERM', async () => {
    const start = (entry: string, env: Record<string, string>) =>
      spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register', join(ROOT, entry)], {
        cwd: ROOT,
        env: { ...process.env, ...env, TS_NODE_PROJECT: join(ROOT, 'tsconfig.json'), LOG_LEVEL: 'info', MIGRATIONS_RUN: 'false' },
        stdio: ['ignore', 'pipe', 'ignore'],
      });
    const exited = (child: ReturnType<typeof spawn>) =>
      new Promise<string>((resolve) => child.on('exit', (code, signal) => resolve(signal ?? `code ${code}`)));

    const queuePrefix = uniqueTestName('sigterm');
    const api = start('src/main.ts', { DATABASE_URL: databaseUrl, PORT: '0', QUEUE_PREFIX: queuePrefix });
    const apiExit = exited(api);
    const port = await listeningPort(api);
    await until('a healthy API', () => fetch(`http://127.0.0.1:${port}/health`).then((r) => r.ok, () => false), 30000, 200);
    api.kill('SIGTERM');
    expect(await apiExit).toBe('SIGTERM');

    const worker = start('src/worker.ts', { DATABASE_URL: databaseUrl, QUEUE_PREFIX: queuePrefix });
    const workerExit = exited(worker);
    let output = '';
    worker.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await until('the worker to start', () => output.includes('Worker started'), 60000, 100);
    worker.kill('SIGTERM');
    expect(await workerExit).toBe('SIGTERM');
    if (testRedisUrl()) await removeQueueKeys(testRedisUrl()!, queuePrefix);
  }, 150000);
});
