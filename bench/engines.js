'use strict';
// The distributed engines against their baselines, in one run (issue 33's targets):
//  - PostgreSQL: GET /v1/spaces/{id} through PgBouncer (transaction mode, DB_PREPARED_STATEMENTS=false)
//    against the same API on PostgreSQL directly (target: at least 90%);
//  - files: upload (PUT to our upload address, streamed into the bucket) and download (GET /v1/files/{key}, streamed
//    by the API, and redirected to a presigned GET of the bucket with S3_REDIRECT_DOWNLOADS)
//    throughput through the API on FILES_BACKEND=s3, against the same S3 server spoken to directly
//    (target: at least 70%);
//  - jobs: no-op jobs per second on a three-master Redis Cluster against one Redis node.
// The S3 server, PgBouncer and the cluster are the ones the tests start (libs/testing).
// Usage: npm run build && npm run bench:engines   (BENCH_ROUNDS, BENCH_FILE_MB, BENCH_JOBS, BENCH_ONLY,
//        BENCH_PGBOUNCER_SLICES, BENCH_PGBOUNCER_SECONDS)
const path = require('node:path');
const { createHash, randomBytes } = require('node:crypto');
const { Readable } = require('node:stream');
const autocannon = require('autocannon');
const { Client } = require('pg');
require('ts-node').register({ transpileOnly: true, project: path.join(__dirname, '..', 'tsconfig.json') });
const { startPgBouncer } = require('../libs/testing/src/pgbouncer.ts');
const { startRedisCluster } = require('../libs/testing/src/redis-cluster.ts');
const { startTestBucket } = require('../libs/testing/src/s3-server.ts');
const { fork } = require('node:child_process');
const { SERVER, REDIS_URL, cpuMs, machineCpuMs, uniqueName, createMigratedDatabase, dropDatabase, freePort, startApi, removeQueueKeys } = require('./lib');
const { seed } = require('./seed');

const { noOpThroughput } = require('./job-throughput');
require('@nestjs/common').Logger.overrideLogger(false);

const ROUNDS = Number(process.env.BENCH_ROUNDS || 3);
const FILE_MB = Number(process.env.BENCH_FILE_MB || 20);
const FILES = Number(process.env.BENCH_FILES || 9);
const JOBS = Number(process.env.BENCH_JOBS || 3000);
const SLICES = Number(process.env.BENCH_PGBOUNCER_SLICES || 15);
const SLICE_SECONDS = Number(process.env.BENCH_PGBOUNCER_SECONDS || 4);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const pct = (ours, theirs) => `${((ours / theirs) * 100).toFixed(1)}%`;

function load(url, token, seconds) {
  return new Promise((resolve, reject) =>
    autocannon({ url, connections: 32, duration: seconds, headers: { authorization: `Bearer ${token}` } }, (error, result) => (error ? reject(error) : resolve(result))),
  );
}

async function pgBouncer(databaseUrl, token, spaceId, env) {
  const pooler = await startPgBouncer(SERVER, { poolSize: Number(process.env.BENCH_PGBOUNCER_POOL || 20) });
  // Each API as docs/scale-out.md configures it: directly, the default client pool (DB_POOL_SIZE 10, also the
  // fastest there: 32 was slower); behind the pooler, 32 client connections, since each query is held longer
  // (BENCH_POOLED_DB_POOL_SIZE). BENCH_DB_POOL_SIZE sets the direct ones' pools.
  const pool = process.env.BENCH_DB_POOL_SIZE ? { DB_POOL_SIZE: process.env.BENCH_DB_POOL_SIZE } : {};
  const pooledPool = { DB_POOL_SIZE: process.env.BENCH_POOLED_DB_POOL_SIZE || '32' };
  const direct = startApi({ ...env, ...pool, DATABASE_URL: databaseUrl });
  const pooled = startApi({ ...env, ...pooledPool, DATABASE_URL: pooler.via(databaseUrl), DATABASE_DIRECT_URL: databaseUrl, DB_PREPARED_STATEMENTS: 'false' });
  // The same API direct but without named statements: tells the pooler's hop from re-planning every read.
  const unnamed = startApi({ ...env, ...pool, DATABASE_URL: databaseUrl, DB_PREPARED_STATEMENTS: 'false' });
  try {
    const apis = { direct, pooled, unnamed };
    const bases = { direct: await direct.url, pooled: await pooled.url, unnamed: await unnamed.url };
    for (const base of Object.values(bases)) await load(`${base}/v1/spaces/${spaceId}`, token, 5); // warm-up
    // Many short slices, the three APIs taking turns (the order reversed every other slice), so a drift of the shared
    // machine (a checkpoint, a GC pause, the other tenants of the host) falls on all three alike; the share is the
    // ratio of the requests answered over all slices. BENCH_PGBOUNCER_SLICES, BENCH_PGBOUNCER_SECONDS.
    const runs = { direct: [], pooled: [], unnamed: [] };
    for (let slice = 0; slice < SLICES; slice++) {
      for (const name of slice % 2 ? ['pooled', 'unnamed', 'direct'] : ['direct', 'unnamed', 'pooled']) {
        const pids = { api: apis[name].child.pid, pgbouncer: pooler.pid };
        const before = { api: cpuMs(pids.api), pgbouncer: cpuMs(pids.pgbouncer), machine: machineCpuMs() };
        const result = await load(`${bases[name]}/v1/spaces/${spaceId}`, token, SLICE_SECONDS);
        if (result.non2xx) throw new Error(`${name}: ${result.non2xx} answers were not 2xx`);
        const machine = machineCpuMs();
        result.cpuMs = {
          api: cpuMs(pids.api) - before.api,
          pgbouncer: cpuMs(pids.pgbouncer) - before.pgbouncer,
          machine: machine ? machine.busy - before.machine.busy : 0,
          steal: machine ? machine.steal - before.machine.steal : 0,
        };
        runs[name].push(result);
      }
    }
    const total = (name) => runs[name].reduce((sum, r) => sum + r.requests.total, 0);
    const rps = (name) => total(name) / (SLICES * SLICE_SECONDS);
    const p99 = (name) => median(runs[name].map((r) => r.latency.p99));
    // CPU per answered request, in µs, over all slices: the API process, PgBouncer, and the whole machine (every process on both cores).
    const cpu = (name, part) => Math.round((runs[name].reduce((sum, r) => sum + r.cpuMs[part], 0) * 1000) / total(name));
    console.log(`\nGET /v1/spaces/{id}, 32 connections, ${SLICES} slices of ${SLICE_SECONDS} s per API, taking turns (requests over all slices)`);
    const row = (path, name) => ({ path, 'req/s': Math.round(rps(name)), 'p99 ms': p99(name), 'API µs/req': cpu(name, 'api'), 'PgBouncer µs/req': cpu(name, 'pgbouncer'), 'machine µs/req': cpu(name, 'machine'), 'steal µs/req': cpu(name, 'steal') });
    console.table([
      row('PostgreSQL directly', 'direct'),
      row('directly, DB_PREPARED_STATEMENTS=false', 'unnamed'),
      row('through PgBouncer (transaction mode)', 'pooled'),
    ]);
    const pairs = runs.pooled.map((r, i) => r.requests.total / runs.direct[i].requests.total).sort((a, b) => a - b);
    const quartile = (q) => `${(pairs[Math.floor(q * (pairs.length - 1))] * 100).toFixed(1)}%`;
    console.log(`through PgBouncer: ${pct(total('pooled'), total('direct'))} of direct (slice by slice: lowest ${quartile(0)}, quartiles ${quartile(0.25)} / ${quartile(0.5)} / ${quartile(0.75)}, highest ${quartile(1)})`);
  } finally {
    await direct.stop();
    await pooled.stop();
    await unnamed.stop();
    await pooler.stop();
  }
}

/** An upload address of our own for `size` bytes, as generateStorageUploadURL makes one (its token returned here). */
async function uploadAddress(databaseUrl, size) {
  const token = randomBytes(32).toString('base64url');
  const key = randomBytes(32).toString('base64url');
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      `INSERT INTO storage_uploads (id, organization_id, token_hash, storage_key, kind, name, content_type, size, created_by, expires_at, uploaded_at)
       VALUES ($1, 'benchorg', $2, $3, 'organization_file', 'bench.bin', 'application/octet-stream', $4, 'benchuser', now() + interval '1 hour', NULL)`,
      [randomBytes(8).toString('hex'), createHash('sha256').update(token).digest('hex'), key, size],
    );
  } finally {
    await client.end();
  }
  return { token, key };
}

async function files(databaseUrl, env) {
  const bucket = await startTestBucket();
  const { S3Client, GetObjectCommand } = require('@aws-sdk/client-s3');
  const { Upload } = require('@aws-sdk/lib-storage');
  const { s3 } = bucket.config;
  const client = new S3Client({ endpoint: s3.endpoint, region: s3.region, forcePathStyle: true, credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey } });
  const onBucket = {
    ...env,
    DATABASE_URL: databaseUrl,
    FILES_BACKEND: 's3',
    S3_ENDPOINT: s3.endpoint,
    S3_BUCKET: s3.bucket,
    S3_ACCESS_KEY_ID: s3.accessKeyId,
    S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    S3_FORCE_PATH_STYLE: 'true',
  };
  const api = startApi(onBucket);
  // The same API with downloads redirected to presigned GETs of the bucket (S3_REDIRECT_DOWNLOADS).
  const redirecting = startApi({ ...onBucket, S3_REDIRECT_DOWNLOADS: 'true' });
  const size = FILE_MB * 1024 * 1024;
  const chunk = randomBytes(1024 * 1024);
  const body = () => Readable.from(Array.from({ length: FILE_MB }, () => chunk));
  const drain = async (stream) => {
    let n = 0;
    for await (const part of stream) n += part.length;
    return n;
  };
  // The bare relay: bucket to client through node:http in a process of its own (our download's ceiling here).
  const relayPort = await freePort();
  const relay = fork(path.join(__dirname, 's3-relay-server.js'), {
    env: { ...process.env, PORT: String(relayPort), S3_ENDPOINT: s3.endpoint, S3_BUCKET: s3.bucket, S3_ACCESS_KEY_ID: s3.accessKeyId, S3_SECRET_ACCESS_KEY: s3.secretAccessKey },
    stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
  });
  await new Promise((resolve) => relay.once('message', resolve));
  const httpGet = (url) => new Promise((resolve, reject) => require('node:http').get(url, resolve).on('error', reject));
  const httpPut = (url, headers, stream) =>
    new Promise((resolve, reject) => {
      const request = require('node:http').request(url, { method: 'PUT', headers }, (response) => {
        const parts = [];
        response.on('data', (part) => parts.push(part));
        response.on('end', () => resolve({ status: response.statusCode, text: Buffer.concat(parts).toString() }));
        response.on('error', reject);
      });
      request.on('error', reject);
      stream.pipe(request);
    });
  try {
    const base = await api.url;
    const redirectBase = await redirecting.url;
    const figures = { ourUp: [], directUp: [], ourDown: [], directDown: [], relayDown: [], redirectedDown: [] };
    const keys = [];
    for (let i = 0; i < FILES; i++) {
      const { token, key } = await uploadAddress(databaseUrl, size);
      let start = performance.now();
      // Node's http client, as the SDK's own requests use: fetch's web streams would make ours the slower writer.
      const put = await httpPut(`${base}/v1/storage/uploads/${token}`, { 'content-type': 'application/octet-stream', 'content-length': String(size) }, body());
      if (put.status !== 200) throw new Error(`upload through the API answered ${put.status}: ${put.text}`);
      figures.ourUp.push(size / ((performance.now() - start) / 1000));
      keys.push(key);
      start = performance.now();
      await new Upload({ client, queueSize: 2, partSize: 8 * 1024 * 1024, params: { Bucket: s3.bucket, Key: `direct-${i}-${key}`, Body: body(), ContentType: 'application/octet-stream' } }).done();
      figures.directUp.push(size / ((performance.now() - start) / 1000));
    }
    for (const key of keys) {
      let start = performance.now();
      // Node's http client on both sides (the SDK uses it): fetch's web streams would be the slower reader.
      if ((await drain(await httpGet(`${base}/v1/files/${key}`))) !== size) throw new Error('download through the API was short');
      figures.ourDown.push(size / ((performance.now() - start) / 1000));
      start = performance.now();
      if ((await drain(await httpGet(`http://127.0.0.1:${relayPort}/${key}`))) !== size) throw new Error('download through the bare relay was short');
      figures.relayDown.push(size / ((performance.now() - start) / 1000));
      start = performance.now();
      // What a client following redirects does: our answer (the key checked, an address signed), then the bucket's.
      const answer = await httpGet(`${redirectBase}/v1/files/${key}`);
      answer.resume();
      if (answer.statusCode !== 302) throw new Error(`the redirecting API answered ${answer.statusCode}`);
      if ((await drain(await httpGet(answer.headers.location))) !== size) throw new Error('the redirected download was short');
      figures.redirectedDown.push(size / ((performance.now() - start) / 1000));
      start = performance.now();
      const object = await client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: key }));
      if ((await drain(object.Body)) !== size) throw new Error('direct download was short');
      figures.directDown.push(size / ((performance.now() - start) / 1000));
    }
    const mbps = (values) => (median(values) / 1024 / 1024).toFixed(1);
    console.log(`\nFiles of ${FILE_MB} MB, ${FILES} each way, one at a time (median MB/s), on s3rver`);
    console.table([
      { what: 'upload', 'through our API': mbps(figures.ourUp), 'S3 server directly': mbps(figures.directUp), share: pct(median(figures.ourUp), median(figures.directUp)) },
      { what: 'download', 'through our API': mbps(figures.ourDown), 'S3 server directly': mbps(figures.directDown), share: pct(median(figures.ourDown), median(figures.directDown)) },
      {
        what: 'download, S3_REDIRECT_DOWNLOADS',
        'through our API': mbps(figures.redirectedDown),
        'S3 server directly': mbps(figures.directDown),
        share: pct(median(figures.redirectedDown), median(figures.directDown)),
      },
    ]);
    console.log(`download through a bare relay (node:http, its own process): ${mbps(figures.relayDown)} MB/s; ours is ${pct(median(figures.ourDown), median(figures.relayDown))} of it`);
  } finally {
    client.destroy();
    relay.kill();
    await api.stop();
    await redirecting.stop();
    await bucket.stop();
  }
}

async function jobs(databaseUrl, prefix) {
  const cluster = await startRedisCluster();
  const base = { backend: 'redis', redisUrl: REDIS_URL, databaseUrl, prefix, pgSchema: 'bullmq', lockMs: 30000, stalledIntervalMs: 30000 };
  try {
    const single = [];
    const clustered = [];
    for (let round = 0; round < ROUNDS; round++) {
      single.push(await noOpThroughput(base, 2, JOBS));
      clustered.push(await noOpThroughput({ ...base, redisCluster: { nodes: cluster.nodes, tls: false } }, 2, JOBS));
    }
    console.log(`\nNo-op jobs, ${JOBS} per round, two workers of concurrency 8, ${ROUNDS} rounds (median jobs/s)`);
    console.table([
      { redis: 'one node', 'jobs/s': median(single), rounds: single.join(', ') },
      { redis: 'three-master cluster', 'jobs/s': median(clustered), rounds: clustered.join(', ') },
    ]);
    console.log(`cluster: ${pct(median(clustered), median(single))} of one node (one queue lives on one master: its hash tag's slot)`);
  } finally {
    await cluster.stop();
  }
}

async function main() {
  const name = uniqueName('engines');
  const databaseUrl = await createMigratedDatabase(name);
  try {
    const { token, spaceId } = await seed(databaseUrl, { spaces: 1000 });
    const env = { QUEUE_PREFIX: name, PUBLIC_URL: 'http://localhost' };
    console.log(`node ${process.version}, ${require('node:os').cpus().length} cores`);
    const only = process.env.BENCH_ONLY; // pgbouncer, files or jobs: one part alone
    if (!only || only === 'pgbouncer') await pgBouncer(databaseUrl, token, spaceId, env);
    if (!only || only === 'files') await files(databaseUrl, env);
    if (!only || only === 'jobs') await jobs(databaseUrl, name);
  } finally {
    await dropDatabase(name);
    await removeQueueKeys(name);
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
