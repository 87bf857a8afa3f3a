import { ChildProcess, execFile, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './free-port';

const run = promisify(execFile);

export interface ClusterNode {
  host: string;
  port: number;
}

export interface RunningRedisCluster {
  nodes: ClusterNode[];
  /** The master serving `key`'s slot. */
  masterOf(key: string): Promise<ClusterNode>;
  /** SIGKILLs a node: what it acknowledged is on disk (appendfsync always). */
  kill(node: ClusterNode): Promise<void>;
  /** Starts a killed node again on its port, data and cluster configuration; resolves once the cluster is whole again. */
  restart(node: ClusterNode): Promise<void>;
  stop(): Promise<void>;
}

/** Whether Debian's redis-server and redis-cli (with --cluster) are here. */
export function redisClusterAvailable(): boolean {
  return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0 && spawnSync('redis-cli', ['--version'], { stdio: 'ignore' }).status === 0;
}

/**
 * A real three-master Redis Cluster for one test file: `redis-server --cluster-enabled yes` on ports
 * from the OS (each with its cluster bus port, +10000, free too) in a temporary directory, joined by
 * `redis-cli --cluster create`. No replicas: each master writes every command to its append-only
 * file before answering (appendfsync always), so a master killed and restarted keeps what it
 * acknowledged.
 */
export async function startRedisCluster(size = 3): Promise<RunningRedisCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'docs-redis-cluster-'));
  const nodes: ClusterNode[] = [];
  while (nodes.length < size) {
    const port = await freePort();
    if (port + 10000 <= 65535 && (await isFree(port + 10000)) && !nodes.some((n) => n.port === port)) nodes.push({ host: '127.0.0.1', port });
  }
  const processes = new Map<number, ChildProcess>();
  const start = (node: ClusterNode) => {
    const data = join(dir, String(node.port));
    mkdirSync(data, { recursive: true });
    const child = spawn(
      'redis-server',
      ['--port', String(node.port), '--bind', '127.0.0.1', '--cluster-enabled', 'yes', '--cluster-config-file', join(data, 'nodes.conf'), '--cluster-node-timeout', '2000',
        '--appendonly', 'yes', '--appendfsync', 'always', '--save', '', '--dir', data, '--daemonize', 'no', '--logfile', join(data, 'redis.log')],
      { stdio: 'ignore' },
    );
    processes.set(node.port, child);
  };
  const cli = (node: ClusterNode, ...args: string[]) => run('redis-cli', ['-h', node.host, '-p', String(node.port), ...args]).then((r) => r.stdout.trim());
  const clusterOk = async () => {
    for (const node of nodes) {
      const info = await cli(node, 'cluster', 'info').catch(() => '');
      if (!info.includes('cluster_state:ok')) return false;
    }
    return true;
  };
  const waitFor = async (what: string, probe: () => Promise<boolean>, ms = 30_000) => {
    const deadline = Date.now() + ms;
    while (!(await probe())) {
      if (Date.now() > deadline) throw new Error(`Redis Cluster: timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  for (const node of nodes) start(node);
  await waitFor('its nodes to answer', async () => (await Promise.all(nodes.map((n) => cli(n, 'ping').catch(() => '')))).every((a) => a === 'PONG'));
  await run('redis-cli', ['--cluster', 'create', ...nodes.map((n) => `${n.host}:${n.port}`), '--cluster-replicas', '0', '--cluster-yes']);
  await waitFor('the cluster to be whole', clusterOk);
  return {
    nodes,
    async masterOf(key: string) {
      const slot = Number(await cli(nodes[0], 'cluster', 'keyslot', key));
      const ranges = JSON.parse(await cli(nodes[0], '--json', 'cluster', 'slots')) as [number, number, [string, number]][];
      const owner = ranges.find(([from, to]) => slot >= from && slot <= to)!;
      return { host: '127.0.0.1', port: Number(owner[2][1]) };
    },
    async kill(node: ClusterNode) {
      const child = processes.get(node.port)!;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    },
    async restart(node: ClusterNode) {
      start(node);
      await waitFor('the restarted master to rejoin', clusterOk);
    },
    async stop() {
      await Promise.all(
        [...processes.values()].map((child) =>
          child.exitCode !== null || child.signalCode !== null ? undefined : new Promise((resolve) => (child.once('exit', resolve), child.kill('SIGKILL'))),
        ),
      );
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}
