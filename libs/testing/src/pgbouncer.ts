import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port';

export interface RunningPgBouncer {
  /** `url` with its host and port replaced by the pooler's. */
  via(url: string): string;
  /** Its process id (benchmarks read its CPU time). */
  pid: number | undefined;
  stop(): Promise<void>;
}

/** Whether Debian's `pgbouncer` is installed here. */
export function pgBouncerInstalled(): boolean {
  return spawnSync('pgbouncer', ['--version'], { stdio: 'ignore' }).status === 0;
}

/**
 * PgBouncer in transaction pooling mode in front of the PostgreSQL at `serverUrl`, on a port from
 * the OS, every database name passed through (`*`), with a small server pool so that clients
 * really do share server connections. It refuses to run as root, so as root it switches to the
 * `postgres` user (the files it reads are made readable to it).
 */
export async function startPgBouncer(serverUrl: string, options: { poolSize?: number } = {}): Promise<RunningPgBouncer> {
  const server = new URL(serverUrl);
  const dir = mkdtempSync(join(tmpdir(), 'docs-pgbouncer-'));
  chmodSync(dir, 0o777);
  const port = await freePort();
  const user = decodeURIComponent(server.username || 'postgres');
  // Clients are trusted; the password is what PgBouncer logs in to the server with (the embedded server asks for one).
  writeFileSync(join(dir, 'users.txt'), `"${user}" "${decodeURIComponent(server.password)}"\n`);
  writeFileSync(
    join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      `* = host=${server.hostname} port=${server.port || 5432}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${join(dir, 'users.txt')}`,
      'pool_mode = transaction',
      'max_client_conn = 2000',
      `default_pool_size = ${options.poolSize ?? 10}`,
      'ignore_startup_parameters = extra_float_digits,options,statement_timeout',
      // Its console (`SHOW POOLS` on the database `pgbouncer`) tells a test which databases it served.
      `admin_users = ${user}`,
      `logfile = ${join(dir, 'pgbouncer.log')}`,
      '',
    ].join('\n'),
  );
  for (const file of ['users.txt', 'pgbouncer.ini']) chmodSync(join(dir, file), 0o644);
  const asRoot = process.getuid?.() === 0;
  const child: ChildProcess = spawn('pgbouncer', [...(asRoot ? ['-u', 'postgres'] : []), join(dir, 'pgbouncer.ini')], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 10_000;
  while (!(await answers(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      const log = (() => {
        try {
          return readFileSync(join(dir, 'pgbouncer.log'), 'utf8').slice(-1000);
        } catch {
          return '';
        }
      })();
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`PgBouncer did not start on port ${port}: ${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    pid: child.pid,
    via(url: string): string {
      const pooled = new URL(url);
      pooled.hostname = '127.0.0.1';
      pooled.port = String(port);
      return pooled.toString();
    },
    async stop(): Promise<void> {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.once('error', () => done(false));
    socket.connect(port, '127.0.0.1', () => done(true));
  });
}
