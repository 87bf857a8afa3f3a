'use strict';
// Foundation benchmark: GET /v1/spaces/{id} and a 100-item page of GET /v1/orgs/{id}/spaces over
// 10,000 spaces, against our API and against a bare node:http + pg server running the same SQL, once
// with every statement unnamed (as issue 15 measured it) and once preparing what our API prepares, and
// against the latter's work in a plain NestJS controller (the fixed stack's ceiling).
// Ours and the baselines alternate BENCH_ROUNDS times, each round starting with the next server, and medians are
// compared: this machine drifts more between runs than the difference measured. Target (issue 15): GET /v1/spaces/{id} at least 60% of bare at 32 connections,
// with p99 at most 1.5x the bare p99.
// Usage: npm run build && npm run bench   (BENCH_SECONDS, BENCH_WARMUP_SECONDS, BENCH_CONNECTIONS, BENCH_ROUNDS, BENCH_SPACES, BENCH_LOG_LEVEL, BENCH_ONLY, BENCH_NEST_FEATURED to tune)
const { fork } = require('node:child_process');
const path = require('node:path');
const autocannon = require('autocannon');
const { uniqueName, createMigratedDatabase, dropDatabase, startApi, removeQueueKeys, writeResult, cpuMs } = require('./lib');
const { seed } = require('./seed');

const DB = uniqueName('foundation');
const SECONDS = Number(process.env.BENCH_SECONDS || 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 32);
const ROUNDS = Number(process.env.BENCH_ROUNDS || 5);
// The discarded warm-up of each server: our process has far more code for V8 to optimize than the baselines.
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS || 30);

function median(runs) {
  return [...runs].sort((a, b) => a.requests.average - b.requests.average)[Math.floor(runs.length / 2)];
}
const SPACES = Number(process.env.BENCH_SPACES || 10000);
// BENCH_ONLY: run only the routes whose label contains it (`BENCH_ONLY=/spaces/` for the single read).
const ONLY = process.env.BENCH_ONLY;

/** The bare node:http + pg server on a port the OS picks; resolves with its base URL. */
function startBare(env, script = 'bare-server.js') {
  // BENCH_PROFILE_DIR profiles the baselines too, each in a folder named for its script (compare it with the API's).
  const dir = process.env.BENCH_PROFILE_DIR && path.join(process.env.BENCH_PROFILE_DIR, `${path.basename(script, '.js')}${env.BARE_UNNAMED ? '-unnamed' : ''}`);
  const execArgv = dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`] : [];
  const child = fork(path.join(__dirname, script), { env: { ...process.env, ...env }, stdio: 'ignore', execArgv });
  const url = new Promise((resolve) => child.once('message', ({ port }) => resolve(`http://127.0.0.1:${port}`)));
  return { child, url };
}

/** One autocannon run; `cpuPerRequest` is the server's CPU time per answered request in µs. */
async function run(url, token, pid, seconds = SECONDS) {
  const before = cpuMs(pid);
  const result = await new Promise((resolve, reject) => {
    autocannon(
      { url, connections: CONNECTIONS, duration: seconds, headers: { authorization: 'Bearer ' + token } },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
  });
  const after = cpuMs(pid);
  result.cpuPerRequest = before === null || after === null ? null : ((after - before) * 1000) / result.requests.total;
  return result;
}

function line(label, r) {
  const cpu = r.cpuPerRequest === null ? '' : `   CPU ${r.cpuPerRequest.toFixed(0)} µs/req`;
  return `${label.padEnd(34)} ${r.requests.average.toFixed(0).padStart(7)} req/s   p50 ${String(r.latency.p50).padStart(4)} ms   p99 ${String(r.latency.p99).padStart(4)} ms   non-2xx ${r.non2xx}${cpu}`;
}

/** Medians and shares of one baseline against ours, round by round. */
function compare(label, ourRuns, name, theirRuns) {
  const our = median(ourRuns);
  const theirs = median(theirRuns);
  const cpu = (runs) => runs.map((r) => r.cpuPerRequest).sort((a, b) => a - b)[Math.floor(runs.length / 2)];
  console.log(line(`${name} ${label} (median of ${ROUNDS})`, theirs));
  console.log(`  each round ours/${name}: ${ourRuns.map((r, i) => `${r.requests.average.toFixed(0)}/${theirRuns[i].requests.average.toFixed(0)}`).join(', ')} req/s`);
  if (cpu(ourRuns) !== null) console.log(`  server CPU per request (median): ours ${cpu(ourRuns).toFixed(0)} µs, ${name} ${cpu(theirRuns).toFixed(0)} µs`);
  const shares = ourRuns.map((r, i) => r.requests.average / theirRuns[i].requests.average).sort((a, b) => a - b);
  console.log(`  share round by round: ${shares.map((s) => `${(s * 100).toFixed(1)}%`).join(', ')} (median ${(shares[Math.floor(shares.length / 2)] * 100).toFixed(1)}%)`);
  console.log(
    `  our share of ${name}'s throughput: ${((our.requests.average / theirs.requests.average) * 100).toFixed(1)}%; p99 ${our.latency.p99} vs ${theirs.latency.p99} ms (${(our.latency.p99 / theirs.latency.p99).toFixed(2)}x)`,
  );
}

async function main() {
  const databaseUrl = await createMigratedDatabase(DB);
  const ours = { stop: async () => undefined, pid: () => undefined };
  const bares = [];
  try {
    const { token, organizationId, spaceId } = await seed(databaseUrl, { spaces: SPACES });
    const env = { DATABASE_URL: databaseUrl, QUEUE_PREFIX: DB, LOG_LEVEL: process.env.BENCH_LOG_LEVEL || 'warn', PUBLIC_URL: 'http://localhost' };
    const api = startApi(env);
    ours.stop = api.stop;
    ours.pid = () => api.child.pid;
    // Baselines: the bare server as issue 15 measured it (every statement unnamed: PostgreSQL parses
    // and plans each one), and the same server preparing the statements our API prepares.
    // A third, nest-prepared, is the bare-prepared server's work in a plain NestJS controller: the
    // ceiling of the fixed stack, to tell the framework's share of the gap from ours.
    const baselines = [['bare', { BARE_UNNAMED: '1' }], ['bare-prepared', {}], ['nest-prepared', {}, 'nest-baseline-server.js']];
    // BENCH_NEST_FEATURED=1: also nest-prepared with the Nest features our reads use (guard, global validation, param decorators).
    if (process.env.BENCH_NEST_FEATURED === '1') baselines.push(['nest-featured', {}, 'nest-featured-server.js']);
    for (const [name, extra, script] of baselines) {
      const started = startBare({ ...env, ...extra }, script);
      bares.push({ name, child: started.child, url: started.url });
    }
    const ourBase = await api.url;
    for (const bare of bares) bare.base = await bare.url;
    const headers = { authorization: 'Bearer ' + token };
    const routes = [
      ['GET /v1/spaces/{id}', `/v1/spaces/${spaceId}`],
      ['GET /v1/orgs/{id}/spaces?limit=100', `/v1/orgs/${organizationId}/spaces?limit=100`],
    ].filter(([label]) => !ONLY || label.includes(ONLY));
    console.log(`${SPACES} spaces, ${CONNECTIONS} connections, ${SECONDS}s per run, node ${process.version}`);
    const figures = {};
    for (const [label, route] of routes) {
      for (const base of [ourBase, ...bares.map((bare) => bare.base)]) {
        const check = await fetch(base + route, { headers });
        if (check.status !== 200) throw new Error(`${label} answered ${check.status} at ${base}: ${await check.text()}`);
      }
      // Warm-ups are discarded.
      await run(ourBase + route, token, ours.pid(), WARMUP_SECONDS);
      for (const bare of bares) await run(bare.base + route, token, bare.child.pid, WARMUP_SECONDS);
      const ourRuns = [];
      const bareRuns = bares.map(() => []);
      // Each round starts with the next server, so no server always runs first (right after another's load).
      const servers = [{ base: ourBase, pid: ours.pid, runs: ourRuns }, ...bares.map((bare, i) => ({ base: bare.base, pid: () => bare.child.pid, runs: bareRuns[i] }))];
      for (let round = 0; round < ROUNDS; round++) {
        for (let k = 0; k < servers.length; k++) {
          const server = servers[(round + k) % servers.length];
          server.runs.push(await run(server.base + route, token, server.pid()));
        }
      }
      console.log(line(`ours ${label} (median of ${ROUNDS})`, median(ourRuns)));
      for (const [i, bare] of bares.entries()) compare(label, ourRuns, bare.name, bareRuns[i]);
      const summary = (runs) => ({ requestsPerSecond: median(runs).requests.average, p99: median(runs).latency.p99 });
      figures[label] = { ours: summary(ourRuns), ...Object.fromEntries(bares.map((bare, i) => [bare.name, summary(bareRuns[i])])) };
      const ceiling = bares.findIndex((bare) => bare.name === 'nest-prepared');
      const floor = bares.findIndex((bare) => bare.name === 'bare-prepared');
      const shares = bareRuns[ceiling].map((r, i) => r.requests.average / bareRuns[floor][i].requests.average).sort((a, b) => a - b);
      console.log(
        `  the stack's ceiling, nest-prepared's share of bare-prepared: round by round ${shares.map((s) => `${(s * 100).toFixed(1)}%`).join(', ')}; medians ${((median(bareRuns[ceiling]).requests.average / median(bareRuns[floor]).requests.average) * 100).toFixed(1)}%, p99 ${(median(bareRuns[ceiling]).latency.p99 / median(bareRuns[floor]).latency.p99).toFixed(2)}x`,
      );
    }
    writeResult(figures);
  } finally {
    await ours.stop();
    for (const bare of bares) bare.child.kill('SIGTERM');
    await dropDatabase(DB);
    await removeQueueKeys(DB);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
