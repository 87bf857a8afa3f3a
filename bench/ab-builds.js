'use strict';
// Two or more builds of the API side by side, for telling a change from this machine's drift: each argument is
// a copy of `dist` (kept inside the checkout, so its requires find node_modules: `cp -r dist var/ab/before`).
// Every build and nest-prepared (the ceiling) serve GET /v1/spaces/{id} in short slices that take turns
// (AB_SLICES slices of AB_SECONDS each, after AB_WARMUP_SECONDS per server), so a slow minute of the machine falls
// on all of them. Each slice's figures come from /proc: the server's main thread and its other threads (garbage
// collection helpers, libuv) in CPU µs per request, PostgreSQL's processes, and the load generator (this process).
// The main thread is the one a Node server saturates, so its CPU per request is the figure to compare.
// Usage: npm run build && cp -r dist var/ab/before && (change, build) && node bench/ab-builds.js var/ab/before dist
const fs = require('node:fs');
const path = require('node:path');
const { spawn, fork } = require('node:child_process');
const autocannon = require('autocannon');
const { ROOT, REDIS_URL, uniqueName, createMigratedDatabase, dropDatabase, removeQueueKeys, freePort, percentile } = require('./lib');
const { seed } = require('./seed');

const SLICES = Number(process.env.AB_SLICES || 10);
const SECONDS = Number(process.env.AB_SECONDS || 3);
const WARMUP_SECONDS = Number(process.env.AB_WARMUP_SECONDS || 12);

/** CPU ms of a process's main thread and of its other threads. */
function threadsCpuMs(pid) {
  const times = { main: 0, others: 0 };
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    const stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    times[tid === String(pid) ? 'main' : 'others'] += (Number(fields[11]) + Number(fields[12])) * 10;
  }
  return times;
}

/** CPU ms of every PostgreSQL process. */
function postgresCpuMs() {
  let ms = 0;
  for (const pid of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() !== 'postgres') continue;
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ms += (Number(fields[11]) + Number(fields[12])) * 10;
    } catch {
      // A backend that ended between the listing and the read.
    }
  }
  return ms;
}

async function startBuild(dist, env) {
  const port = await freePort();
  const main = path.join(ROOT, dist, 'src/main.js');
  const child = spawn('node', [main], {
    env: { ...process.env, REDIS_URL, LOG_LEVEL: 'warn', MIGRATIONS_RUN: 'false', RATE_LIMITS: 'off', ...env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    if (await fetch(`${base}/health`).then((res) => res.status < 500, () => false)) return { name: dist, base, child };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${dist} did not answer /health within 30 s`);
}

async function slice(server, route, token, seconds) {
  const [threads, postgres, load] = [threadsCpuMs(server.child.pid), postgresCpuMs(), process.cpuUsage()];
  const result = await new Promise((resolve, reject) =>
    autocannon({ url: server.base + route, connections: 32, duration: seconds, headers: { authorization: 'Bearer ' + token } }, (err, res) => (err ? reject(err) : resolve(res))),
  );
  const after = threadsCpuMs(server.child.pid);
  const perRequest = (ms) => (ms * 1000) / result.requests.total;
  const loadUs = process.cpuUsage(load);
  return {
    rps: result.requests.average,
    non2xx: result.non2xx,
    main: perRequest(after.main - threads.main),
    others: perRequest(after.others - threads.others),
    postgres: perRequest(postgresCpuMs() - postgres),
    load: (loadUs.user + loadUs.system) / result.requests.total,
  };
}

const median = (values) => percentile([...values].sort((a, b) => a - b), 50);

async function main() {
  const builds = process.argv.slice(2);
  if (builds.length === 0) throw new Error('name at least one copy of dist (see the usage line)');
  const DB = uniqueName('ab');
  const databaseUrl = await createMigratedDatabase(DB);
  const servers = [];
  try {
    const { token, spaceId } = await seed(databaseUrl, { spaces: 2000 });
    const env = { DATABASE_URL: databaseUrl, QUEUE_PREFIX: DB, PUBLIC_URL: 'http://localhost' };
    for (const dist of builds) servers.push(await startBuild(dist, env));
    const ceiling = fork(path.join(__dirname, 'nest-baseline-server.js'), { env: { ...process.env, ...env }, stdio: 'ignore' });
    const port = await new Promise((resolve) => ceiling.once('message', (message) => resolve(message.port)));
    servers.push({ name: 'nest-prepared', base: `http://127.0.0.1:${port}`, child: ceiling });
    const route = `/v1/spaces/${spaceId}`;
    for (const server of servers) {
      server.slices = [];
      await slice(server, route, token, WARMUP_SECONDS);
    }
    for (let round = 0; round < SLICES; round++) {
      for (let k = 0; k < servers.length; k++) {
        const server = servers[(round + k) % servers.length];
        server.slices.push(await slice(server, route, token, SECONDS));
      }
    }
    console.log(`${SLICES} slices of ${SECONDS} s per server, GET /v1/spaces/{id}, 32 connections; medians per request`);
    const ceilingMain = median(servers.at(-1).slices.map((s) => s.main));
    for (const server of servers) {
      const of = (key) => median(server.slices.map((s) => s[key]));
      const shares = server.slices.map((s, i) => s.rps / servers.at(-1).slices[i].rps);
      console.log(
        `${server.name.padEnd(24)} ${of('rps').toFixed(0).padStart(6)} req/s (${(median(shares) * 100).toFixed(1)}% of nest-prepared)  ` +
          `main thread ${of('main').toFixed(0)} µs (${(of('main') / ceilingMain).toFixed(2)}x)  other threads ${of('others').toFixed(0)} µs  ` +
          `PostgreSQL ${of('postgres').toFixed(0)} µs  load generator ${of('load').toFixed(0)} µs  non-2xx ${server.slices.reduce((n, s) => n + s.non2xx, 0)}`,
      );
    }
  } finally {
    for (const server of servers) server.child.kill('SIGTERM');
    await Promise.all(servers.map((server) => (server.child.exitCode === null ? new Promise((resolve) => server.child.once('exit', resolve)) : null)));
    await dropDatabase(DB);
    await removeQueueKeys(DB);
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
