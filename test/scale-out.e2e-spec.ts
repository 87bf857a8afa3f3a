import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { AddressInfo, createServer } from 'node:net';
import { join } from 'node:path';
import {
  RunningPgBouncer,
  RunningRedisCluster,
  TestApp,
  TestBucket,
  createTestDatabase,
  dropTestDatabase,
  pgBouncerInstalled,
  redisClusterAvailable,
  removeQueueKeys,
  startPgBouncer,
  startRedisCluster,
  startTestBucket,
  testRedisUrl,
  testServerUrl,
  uniqueTestName,
} from '@app/testing';
import { BullJobPort } from '../src/jobs/bullmq/bull-job-port';
import { JobBackend } from '../src/jobs/bullmq/job-backend';
import { JobOperations } from '../src/jobs/bullmq/job-operations';
import { jobsConfig } from '../src/jobs/jobs.module';
import { PurgeDeletedSpaces } from '../src/modules/spaces/application/space.jobs';
import { bareRepository } from './support/git-repo';
import { until } from './support/waiting';

const ROOT = join(__dirname, '..');
const FIXTURE = join(__dirname, 'fixtures/gitbook-repo');
const METRICS_TOKEN = 'worker-metrics-token-0123';

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** A process started from source, as `npm run start:prod` / `start:worker` start it from dist. */
function start(entry: string, env: Record<string, string>): { child: ChildProcess; exited: Promise<unknown>; output: () => string } {
  const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register', join(ROOT, entry)], {
    cwd: ROOT,
    env: { ...process.env, ...env, TS_NODE_PROJECT: join(ROOT, 'tsconfig.json'), LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let seen = '';
  child.stdout!.on('data', (c: Buffer) => (seen += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (seen += c.toString()));
  return { child, exited: new Promise((resolve) => child.on('exit', resolve)), output: () => seen };
}

/**
 * Two API processes and two worker processes on the distributed engines: files in an S3 bucket,
 * PostgreSQL through PgBouncer in transaction mode, jobs on a three-master Redis Cluster (on one
 * PostgreSQL and the PostgreSQL job backend when this run has no Redis, as the embedded run does).
 * Requests to either API see the same state and files, every job runs once, the purge schedule exists once.
 */
describe('scale out: two API processes and two worker processes', () => {
  const dbName = uniqueTestName('scale');
  let t: TestApp;
  let processes: ReturnType<typeof start>[] = [];
  let ports: number[];
  let backend: JobBackend;
  let metricsPorts: number[];
  let bucket: TestBucket;
  let pooler: RunningPgBouncer | undefined;
  let cluster: RunningRedisCluster | undefined;
  let tmp: string;

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'docs-scale-'));
    const databaseUrl = await createTestDatabase(dbName);
    bucket = await startTestBucket();
    pooler = pgBouncerInstalled() && !process.env.TEST_POOLED_DATABASE_URL ? await startPgBouncer(testServerUrl()) : undefined;
    cluster = testRedisUrl() && redisClusterAvailable() ? await startRedisCluster() : undefined;
    const pooled = pooler?.via(databaseUrl);
    const { s3 } = bucket.config;
    t = await TestApp.start({
      databaseUrl: pooled ?? databaseUrl,
      databaseDirectUrl: databaseUrl,
      dbPreparedStatements: !pooled,
      queuePrefix: dbName,
      ...bucket.config,
      ...(cluster ? { jobsBackend: 'redis' as const, redisCluster: { nodes: cluster.nodes, tls: false } } : {}),
    });
    const env: Record<string, string> = {
      DATABASE_URL: pooled ?? databaseUrl,
      DATABASE_DIRECT_URL: databaseUrl,
      DB_PREPARED_STATEMENTS: String(!pooled),
      QUEUE_PREFIX: dbName,
      JOBS_BACKEND: t.config.jobsBackend,
      MIGRATIONS_RUN: 'false',
      // The Git Sync import below reads a repository on this machine.
      GIT_ALLOWED_PROTOCOLS: 'https,ssh,file',
      GIT_SYNC_DIR: join(tmp, 'git-sync'),
      FILES_BACKEND: 's3',
      S3_ENDPOINT: s3.endpoint!,
      S3_REGION: s3.region,
      S3_BUCKET: s3.bucket,
      S3_ACCESS_KEY_ID: s3.accessKeyId!,
      S3_SECRET_ACCESS_KEY: s3.secretAccessKey!,
      S3_FORCE_PATH_STYLE: 'true',
      ...(cluster ? { REDIS_CLUSTER_NODES: cluster.nodes.map((node) => `${node.host}:${node.port}`).join(',') } : {}),
    };
    const apis = [start('src/main.ts', { ...env, PORT: '0' }), start('src/main.ts', { ...env, PORT: '0' })];
    metricsPorts = [await freePort(), await freePort()];
    const workers = metricsPorts.map((port) => start('src/worker.ts', { ...env, METRICS_PORT: String(port), METRICS_TOKEN }));
    processes = [...apis, ...workers];
    // Four processes compile the sources at once on what may be a two-core machine: give them time.
    const started = <T>(what: string, probe: () => T | undefined) => until(what, probe, 150000, 200).catch((error: Error): never => {
      throw new Error(`${error.message}; what the processes printed:\n${processes.map((p) => p.output().slice(-2000)).join('\n---\n')}`);
    });
    ports = await Promise.all(apis.map((api) => started('an API to listen', () => Number(/API listening on port (\d+)/.exec(api.output())?.[1]) || undefined)));
    await Promise.all(workers.map((worker) => started('a worker to start', () => worker.output().includes('Worker started') || undefined)));
    backend = new JobBackend(jobsConfig(t.config));
  }, 330000);

  afterAll(async () => {
    for (const p of processes) p.child.kill('SIGTERM');
    await Promise.all(processes.map((p) => p.exited));
    await backend?.close();
    await t?.close();
    if (t?.config.jobsBackend === 'redis' && !cluster && testRedisUrl()) await removeQueueKeys(testRedisUrl()!, dbName);
    await cluster?.stop();
    await pooler?.stop();
    await bucket?.stop();
    await dropTestDatabase(dbName);
    rmSync(tmp, { recursive: true, force: true });
  });

  const call = (port: number, token: string, method: string, path: string, body?: unknown) =>
    fetch(`http://127.0.0.1:${port}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then(async (res) => ({ status: res.status, body: (await res.json()) as any }));

  it('answers on both APIs, each seeing what the other wrote', async () => {
    const alice = await t.user('Alice');
    const org = await call(ports[0], alice.token, 'POST', '/v1/orgs', { title: 'Replicated' });
    expect(org.status).toBe(201);
    expect((await call(ports[1], alice.token, 'GET', `/v1/orgs/${org.body.id}`)).body.title).toBe('Replicated');
    const space = await call(ports[1], alice.token, 'POST', `/v1/orgs/${org.body.id}/spaces`, { title: 'Shared' });
    expect(space.status).toBe(201);
    expect((await call(ports[0], alice.token, 'GET', `/v1/spaces/${space.body.id}`)).body.title).toBe('Shared');
  });

  it('serves from one API the file written through the other (one bucket, no shared disk)', async () => {
    const alice = await t.user('Writer');
    const org = await call(ports[0], alice.token, 'POST', '/v1/orgs', { title: 'Files' });
    const space = await call(ports[0], alice.token, 'POST', `/v1/orgs/${org.body.id}/spaces`, { title: 'With files' });
    const cr = await call(ports[0], alice.token, 'POST', `/v1/spaces/${space.body.id}/change-requests`, { subject: 'A file' });
    const bytes = Buffer.from('bytes written through the first API, read through the second');
    const written = await call(ports[0], alice.token, 'POST', `/v1/spaces/${space.body.id}/change-requests/${cr.body.id}/content`, {
      changes: [{ operation: 'insert_files', files: [{ name: 'note.txt', contentType: 'text/plain', base64: bytes.toString('base64') }] }],
    });
    expect(written.status).toBe(200);
    const key = new URL(written.body.insertedFiles[0].downloadURL).pathname.split('/').pop();
    const served = await fetch(`http://127.0.0.1:${ports[1]}/v1/files/${key}`);
    expect([served.status, await served.text()]).toEqual([200, bytes.toString()]);
  });

  it('serves from one API the assets a worker imported through Git Sync, asked for through the other', async () => {
    const { url } = bareRepository(tmp, FIXTURE);
    const alice = await t.user('Importer');
    const org = await call(ports[0], alice.token, 'POST', '/v1/orgs', { title: 'Imported' });
    const space = await call(ports[0], alice.token, 'POST', `/v1/orgs/${org.body.id}/spaces`, { title: 'From Git' });
    const started = await fetch(`http://127.0.0.1:${ports[0]}/v1/spaces/${space.body.id}/git/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${alice.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url, ref: 'refs/heads/main' }),
    });
    expect(started.status).toBe(204);
    const operation = await until('the import to finish', async () => {
      const [row] = await t.dataSource.query(`SELECT state FROM git_sync_operations WHERE space_id = $1 ORDER BY created_at DESC LIMIT 1`, [space.body.id]);
      return row && ['success', 'failure', 'skipped'].includes(row.state) ? row : undefined;
    }, 60000, 200);
    expect(operation.state).toBe('success');
    const files = await call(ports[1], alice.token, 'GET', `/v1/spaces/${space.body.id}/content/files`);
    const pdf = files.body.items.find((file: { name: string }) => file.name === 'guide.pdf');
    const served = await fetch(pdf.downloadURL.replace(/^https?:\/\/[^/]+/, `http://127.0.0.1:${ports[1]}`));
    expect([served.status, served.headers.get('content-type'), Number(served.headers.get('content-length'))]).toEqual([200, 'application/pdf', pdf.size]);
  }, 90000);

  it('runs each of 20 enqueued jobs exactly once across the two workers, and keeps one purge schedule', async () => {
    const port = new BullJobPort(backend);
    const enqueued = await Promise.all(Array.from({ length: 20 }, () => port.enqueue(PurgeDeletedSpaces, {})));
    const queue = backend.queue(PurgeDeletedSpaces.queue);
    const jobs = await until('every job to finish', async () => {
      const found = await Promise.all(enqueued.map(({ id }) => queue.getJob(id)));
      return found.every((job) => job?.finishedOn) ? found : undefined;
    }, 60000, 200);
    for (const job of jobs) {
      expect(await job!.getState()).toBe('completed');
      // A job started twice (taken by both workers, or run again after a stall) would count 2.
      expect(job!.attemptsStarted).toBe(1);
    }
    // Both workers upserted the purge schedule at start; it exists once.
    expect(await new JobOperations(backend, [PurgeDeletedSpaces.queue]).schedules(PurgeDeletedSpaces.queue)).toEqual([
      expect.objectContaining({ key: PurgeDeletedSpaces.name, everyMs: t.config.spacePurgeEveryMs }),
    ]);
    // And each job's run was logged by exactly one worker process.
    const logs = processes.slice(2).map((w) => w.output());
    for (const { id } of enqueued) {
      const runs = logs.filter((log) => log.includes(`purge-deleted-spaces ${id} (queue maintenance, attempt 1) completed`));
      expect(runs).toHaveLength(1);
    }
    // Each worker serves its own metrics; together they counted every run.
    const counted = await Promise.all(
      metricsPorts.map(async (port) => {
        expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(401);
        const text = await (await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
        return Number(/jobs_total\{job="purge-deleted-spaces",outcome="completed"\} (\d+)/.exec(text)?.[1] ?? 0);
      }),
    );
    expect(counted[0] + counted[1]).toBeGreaterThanOrEqual(20);
  }, 90000);
});
