import { ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { until } from './support/waiting';

const ROOT = join(__dirname, '..');
const run = promisify(execFile);
// Resolved from the repository, since the processes run in a temporary working directory.
const PRELOAD = ['-r', require.resolve('ts-node/register/transpile-only'), '-r', require.resolve('tsconfig-paths/register')];
const env = () => {
  const e: NodeJS.ProcessEnv = { ...process.env, TS_NODE_PROJECT: join(ROOT, 'tsconfig.json'), PORT: '0', LOG_LEVEL: 'info' };
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'JOBS_BACKEND', 'FILES_DIR', 'DATA_DIR', 'QUEUE_PREFIX']) delete e[name];
  return e;
};

/** Started as a terminal would: the leader of its own process group, which Ctrl-C signals as a whole. */
function start(cwd: string): { child: ChildProcess; port: Promise<number>; output: () => string } {
  const child = spawn(process.execPath, [...PRELOAD, join(ROOT, 'src/embedded.ts')], { cwd, env: env(), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let seen = '';
  const port = new Promise<number>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /API listening on port (\d+)/.exec(seen);
      if (match) resolve(Number(match[1]));
    });
    child.stderr!.on('data', (chunk: Buffer) => (seen += chunk.toString()));
    child.on('exit', () => reject(new Error(`embedded mode exited before listening:\n${seen.slice(-2000)}`)));
  });
  return { child, port, output: () => seen };
}

const exited = (child: ChildProcess) => new Promise((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.on('exit', resolve)));

/** `npm start` with nothing configured: embedded PostgreSQL, API and worker in one process, data under ./var. */
describe('embedded mode', () => {
  const cwd = mkdtempSync(join(tmpdir(), 'docs-embedded-'));
  let current: ChildProcess | undefined;

  afterAll(async () => {
    if (current && current.exitCode === null) {
      current.kill('SIGTERM');
      await exited(current);
    }
    // Should the server have died without stopping PostgreSQL, stop it here rather than leak it.
    const pidFile = join(cwd, 'var/postgres/postmaster.pid');
    if (existsSync(pidFile)) process.kill(Number(readFileSync(pidFile, 'utf8').split('\n')[0]), 'SIGTERM');
    rmSync(cwd, { recursive: true, force: true });
  });

  it('starts from nothing, answers /health, prints how to begin, keeps data across restarts (even after a SIGKILL), and the CLI reaches it', async () => {
    const first = start(cwd);
    current = first.child;
    const port = await first.port;
    const health = await fetch(`http://127.0.0.1:${port}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok', info: { postgres: { status: 'up' } } });
    expect(first.output()).toContain(`Data:       ${join(cwd, 'var')}`);
    expect(first.output()).toMatch(/users:create --email .* --instance-admin/);
    expect(existsSync(join(cwd, 'var/postgres/PG_VERSION'))).toBe(true);

    // The CLI, run in the same directory with no DATABASE_URL, finds the embedded database.
    const created = await run(process.execPath, [...PRELOAD, join(ROOT, 'src/cli.ts'), 'users:create', '--email', 'first@example.com', '--name', 'First', '--instance-admin'], {
      cwd,
      env: env(),
    });
    const { token } = JSON.parse(created.stdout.trim());
    expect((await fetch(`http://127.0.0.1:${port}/v1/user`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    // The worker runs in this process on the PostgreSQL job backend: the console shows the purge scheduled at start
    // completed (a sweep that found nothing logs only at debug).
    const maintenance = async () => {
      const queues = ((await (await fetch(`http://127.0.0.1:${port}/admin/queues/api/queues`, { headers: { authorization: `Bearer ${token}` } })).json()) as { queues: Array<{ name: string; counts: Record<string, number> }> }).queues;
      return queues.find((q) => q.name === 'maintenance')?.counts.completed ?? 0;
    };
    for (let i = 0; i < 150 && (await maintenance()) < 1; i++) await new Promise((r) => setTimeout(r, 200));
    expect(await maintenance()).toBeGreaterThanOrEqual(1);
    expect(first.output()).not.toMatch(/purge-deleted-spaces \S+ \(queue maintenance, attempt 1\) (started|completed)/);
    // A SECRETS_KEY was made next to the data (0600), so what stores secrets works: a webhook, with its secret.
    expect(statSync(join(cwd, 'var/secrets.key')).mode & 0o777).toBe(0o600);
    expect(first.output()).toContain(`Secrets:    ${join(cwd, 'var/secrets.key')} (made now`);
    const orgs = await fetch(`http://127.0.0.1:${port}/v1/orgs`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ title: 'Acme' }) });
    const org = ((await orgs.json()) as { id: string }).id;
    const hook = await fetch(`http://127.0.0.1:${port}/v1/orgs/${org}/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'https://hooks.example.com/x', events: ['space.updated'] }),
    });
    expect(hook.status).toBe(201);
    const key = readFileSync(join(cwd, 'var/secrets.key'), 'utf8');
    const board = await fetch(`http://127.0.0.1:${port}/admin/queues/api/queues`, { headers: { authorization: `Bearer ${token}` } });
    expect(board.status).toBe(200);
    expect(JSON.stringify(await board.json())).toContain('"name":"maintenance"');

    first.child.kill('SIGTERM');
    expect(await exited(first.child)).toBe(0);
    expect(existsSync(join(cwd, 'var/postgres.json'))).toBe(false);

    const second = start(cwd);
    current = second.child;
    const again = await second.port;
    // The key is kept across restarts (stored secrets stay readable). The banner is printed just after the port is.
    expect(readFileSync(join(cwd, 'var/secrets.key'), 'utf8')).toBe(key);
    await until('the banner after the restart', () => second.output().includes('Secrets:'), 10_000);
    expect(second.output()).toContain('(kept;');
    const me = await fetch(`http://127.0.0.1:${again}/v1/user`, { headers: { authorization: `Bearer ${token}` } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { email: string }).email).toBe('first@example.com');
    // Killed outright, the process leaves its PostgreSQL running; the next start stops that one and carries on.
    second.child.kill('SIGKILL');
    await exited(second.child);
    expect(existsSync(join(cwd, 'var/postgres/postmaster.pid'))).toBe(true);
    const third = start(cwd);
    current = third.child;
    const last = await third.port;
    expect((await fetch(`http://127.0.0.1:${last}/v1/user`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    // Ctrl-C in a terminal: SIGINT to the whole process group. Everything stops in order, exit code 0, no error line.
    process.kill(-third.child.pid!, 'SIGINT');
    expect(await exited(third.child)).toBe(0);
    expect(third.output()).toContain('Stopped (SIGINT)');
    expect(third.output()).not.toMatch(/"level":50|57P01|terminating connection/);
    expect(existsSync(join(cwd, 'var/postgres/postmaster.pid'))).toBe(false);
  }, 240000);
});
