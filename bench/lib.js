'use strict';
// What every benchmark needs: a database and queue prefix of its own (removed afterwards), migrations,
// and the built API started on a port the OS picks. Benchmarks run from dist: `npm run build` first.
const { spawn } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { Client } = require('pg');

const ROOT = path.join(__dirname, '..');
const SERVER = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';

/** `docs_bench_<label>_<run>`: a database name and queue prefix no other run (or developer) uses. */
function uniqueName(label) {
  return `docs_bench_${label}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
}

function dbUrl(name) {
  const url = new URL(SERVER);
  url.pathname = '/' + name;
  return url.toString();
}

async function admin(sql) {
  const client = new Client({ connectionString: SERVER });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Creates the database and runs the committed migrations on it; resolves with its URL. */
async function createMigratedDatabase(name) {
  await admin(`CREATE DATABASE ${name}`);
  const env = { ...process.env, DATABASE_URL: dbUrl(name) };
  const migrate = spawn('node', ['node_modules/.bin/typeorm', '-d', 'dist/src/database/data-source.js', 'migration:run'], { env, stdio: 'ignore', cwd: ROOT });
  const code = await new Promise((resolve) => migrate.on('exit', resolve));
  if (code !== 0) {
    await dropDatabase(name);
    throw new Error('migrations failed');
  }
  return dbUrl(name);
}

function dropDatabase(name) {
  return admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}

/**
 * Creates the (empty) database `name`, runs `work`, then drops it and the queue keys under the same
 * name, whether `work` finished or failed (seeding against a broken build, say).
 */
async function withDatabase(name, work) {
  await admin(`CREATE DATABASE ${name}`);
  try {
    return await work();
  } finally {
    await dropDatabase(name);
    await removeQueueKeys(name);
  }
}

/** A port the OS has just handed out (and taken back), for a server that needs it on its command line. */
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = require('node:net').createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Starts dist/src/main.js with `env` on a free port (any LOG_LEVEL: readiness is polled on /health, so
 * benchmarks can run with logging off). `url` resolves with its base URL once it answers; `stop()` ends it.
 */
function startApi(env) {
  const url = (async () => {
    const port = await freePort();
    // BENCH_PROFILE_DIR: write a CPU profile of the API (node --cpu-prof) there when it stops.
    const profile = process.env.BENCH_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : [];
    // BENCH_API_NODE_FLAGS: extra V8/Node flags for the API process only (GC experiments), space-separated;
    // BENCH_API_STDOUT=1 shows the API's standard output (where --trace-gc writes).
    const flags = (process.env.BENCH_API_NODE_FLAGS || '').split(' ').filter(Boolean);
    const child = spawn('node', [...flags, ...profile, path.join(ROOT, 'dist/src/main.js')], {
      // Rate limits off unless a benchmark measures them: load generators spend a token's budget in seconds.
      env: { ...process.env, REDIS_URL, LOG_LEVEL: 'warn', MIGRATIONS_RUN: 'false', RATE_LIMITS: 'off', ...env, PORT: String(port) },
      stdio: ['ignore', process.env.BENCH_API_STDOUT ? 'inherit' : 'ignore', 'inherit'],
    });
    handle.child = child;
    handle.exited = new Promise((resolve) => child.on('exit', resolve));
    const base = `http://127.0.0.1:${port}`;
    for (let i = 0; i < 300; i++) {
      if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
      const ok = await fetch(`${base}/health`).then((res) => res.status < 500, () => false);
      if (ok) return base;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('server did not answer /health within 30 s');
  })();
  const handle = {
    child: undefined,
    exited: Promise.resolve(),
    url,
    async stop() {
      await url.catch(() => undefined);
      if (handle.child && handle.child.exitCode === null) handle.child.kill('SIGTERM');
      await handle.exited;
    },
  };
  return handle;
}

/** Deletes the Redis keys under a queue prefix this benchmark used. */
async function removeQueueKeys(prefix) {
  const Redis = require('ioredis');
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  try {
    let cursor = '0';
    do {
      const [next, found] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      if (found.length > 0) await redis.del(...found);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    await redis.quit();
  }
}

/** Milliseconds `fn` took to settle. */
async function timed(fn) {
  const start = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** `call(method, route, json)` against `base` with the bearer token: the parsed JSON answer; throws on 4xx/5xx. */
function jsonCaller(base, token) {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  return async (method, route, json) => {
    const res = await fetch(base + route, { method, headers, body: json === undefined ? undefined : JSON.stringify(json) });
    const text = await res.text();
    if (res.status >= 400) throw new Error(`${method} ${route} -> ${res.status} ${text.slice(0, 300)}`);
    return text ? JSON.parse(text) : undefined;
  };
}

/** Writes a benchmark's figures as JSON to BENCH_RESULT_FILE when it is set (for bench/scale-targets.js). */
function writeResult(figures) {
  if (process.env.BENCH_RESULT_FILE) require('node:fs').writeFileSync(process.env.BENCH_RESULT_FILE, JSON.stringify(figures));
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** CPU time (user + system) a process has used so far, in ms; Linux only (null elsewhere). */
function cpuMs(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in clock ticks (USER_HZ 100)
  } catch {
    return null;
  }
}

/** CPU time the whole machine has been busy so far (every core, all processes), and taken by the hypervisor (steal), in ms; Linux only. */
function machineCpuMs() {
  try {
    const [, user, nice, system, , , irq, softirq, steal] = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].split(/\s+/).map(Number);
    return { busy: ((user + nice + system + irq + softirq) * 1000) / 100, steal: (steal * 1000) / 100 };
  } catch {
    return null;
  }
}

module.exports = { cpuMs, machineCpuMs, ROOT, SERVER, REDIS_URL, uniqueName, dbUrl, admin, createMigratedDatabase, dropDatabase, withDatabase, freePort, startApi, removeQueueKeys, percentile, timed, jsonCaller, writeResult };
