'use strict';
// Job platform benchmarks, on each backend (PostgreSQL; Redis when it answers):
//  - enqueue: latency one enqueue adds to a request (p50/p99 over BENCH_ENQUEUES sequential enqueues);
//  - throughput: no-op jobs per second with 1 and 2 workers (each its own connections, concurrency 8);
//  - cold start: `npm start`'s embedded mode, from an empty data directory and from an existing one,
//    to the first answered GET /health.
// Usage: npm run build && npm run bench:jobs   (BENCH_ENQUEUES, BENCH_JOBS to tune)
const { spawn } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const path = require('node:path');
const { Client } = require('pg');
const Redis = require('ioredis');

const dist = (p) => path.join(__dirname, '..', 'dist', 'src', p);
const { JobBackend } = require(dist('jobs/bullmq/job-backend'));
const { BullJobPort } = require(dist('jobs/bullmq/bull-job-port'));
const { NoOp, noOpThroughput } = require('./job-throughput');
require('@nestjs/common').Logger.overrideLogger(false);

const SERVER = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const ENQUEUES = Number(process.env.BENCH_ENQUEUES || 2000);
const JOBS = Number(process.env.BENCH_JOBS || 2000);

async function admin(sql) {
  const client = new Client({ connectionString: SERVER });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

async function enqueueLatency(config) {
  const backend = new JobBackend(config);
  const port = new BullJobPort(backend);
  await backend.queue(NoOp.queue).waitUntilReady();
  for (let i = 0; i < 50; i++) await port.enqueue(NoOp, { i }); // warm up connections and scripts
  const samples = [];
  for (let i = 0; i < ENQUEUES; i++) {
    const start = process.hrtime.bigint();
    await port.enqueue(NoOp, { i });
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  await backend.queue(NoOp.queue).obliterate({ force: true });
  await backend.close();
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 50), p99: percentile(samples, 99) };
}

async function coldStart(dir) {
  const start = performance.now();
  const env = { ...process.env, PORT: '0', LOG_LEVEL: 'warn' };
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'JOBS_BACKEND', 'DATA_DIR']) delete env[name];
  const child = spawn(process.execPath, [dist('embedded.js')], { cwd: dir, env, stdio: ['ignore', 'pipe', 'inherit'] });
  let seen = '';
  const port = await new Promise((resolve, reject) => {
    child.stdout.on('data', (c) => {
      seen += c;
      const m = /API:\s+http:\/\/localhost:(\d+)/.exec(seen);
      if (m) resolve(Number(m[1]));
    });
    child.on('exit', () => reject(new Error('embedded mode exited')));
  });
  for (;;) {
    const ok = await fetch(`http://127.0.0.1:${port}/health`).then((r) => r.ok, () => false);
    if (ok) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  const seconds = (performance.now() - start) / 1000;
  await new Promise((resolve) => {
    child.on('exit', resolve);
    child.kill('SIGTERM');
  });
  return seconds;
}

async function main() {
  const id = randomBytes(4).toString('hex');
  const db = `docs_bench_jobs_${id}`;
  await admin(`CREATE DATABASE ${db}`);
  const url = new URL(SERVER);
  url.pathname = `/${db}`;
  const base = { redisUrl: REDIS, databaseUrl: url.toString(), prefix: db, pgSchema: 'bullmq', lockMs: 30000, stalledIntervalMs: 30000 };
  const backends = ['postgres'];
  const redis = new Redis(REDIS, { lazyConnect: true, maxRetriesPerRequest: 1 });
  if (await redis.connect().then(() => true, () => false)) backends.push('redis');
  redis.disconnect();
  const rows = [];
  try {
    for (const backend of backends) {
      const config = { ...base, backend };
      const latency = await enqueueLatency(config);
      const one = await noOpThroughput(config, 1, JOBS);
      const two = await noOpThroughput(config, 2, JOBS);
      rows.push({ backend, 'enqueue p50 ms': latency.p50.toFixed(2), 'enqueue p99 ms': latency.p99.toFixed(2), 'no-op jobs/s, 1 worker': one, 'no-op jobs/s, 2 workers': two });
    }
  } finally {
    await admin(`DROP DATABASE ${db} WITH (FORCE)`);
    if (backends.includes('redis')) {
      const r = new Redis(REDIS);
      const keys = await r.keys(`${db}:*`);
      if (keys.length) await r.del(...keys);
      r.disconnect();
    }
  }
  console.table(rows);

  const dir = mkdtempSync(path.join(tmpdir(), 'docs-bench-embedded-'));
  try {
    const first = await coldStart(dir);
    const again = await coldStart(dir);
    console.table([{ 'embedded cold start, empty ./var (s)': first.toFixed(2), 'embedded start, existing ./var (s)': again.toFixed(2) }]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
