'use strict';
// What the framework alone costs on this machine: one GET route answering a small constant JSON
// object, with no database, served by node:http and by NestJS on Express with nothing of ours.
// It puts the request-path target of bench/run.js (our GET /v1/spaces/{id} at 60% of a bare
// node:http + pg server) in proportion: NestJS's own share of each request is measured here.
// Usage: npm run bench:floor   (BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_ROUNDS to tune)
const { fork } = require('node:child_process');
const path = require('node:path');
const autocannon = require('autocannon');

const SECONDS = Number(process.env.BENCH_SECONDS || 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 32);
const ROUNDS = Number(process.env.BENCH_ROUNDS || 3);

function start(kind) {
  const child = fork(path.join(__dirname, 'framework-floor-server.js'), { env: { ...process.env, FLOOR: kind }, stdio: 'ignore' });
  const url = new Promise((resolve) => child.once('message', ({ port }) => resolve(`http://127.0.0.1:${port}/v1/spaces/floor`)));
  return { child, url };
}

const run = (url) => new Promise((resolve, reject) => autocannon({ url, connections: CONNECTIONS, duration: SECONDS }, (e, r) => (e ? reject(e) : resolve(r))));
const median = (runs) => [...runs].sort((a, b) => a.requests.average - b.requests.average)[Math.floor(runs.length / 2)];

async function main() {
  const servers = { bare: start('bare'), nest: start('nest') };
  try {
    const urls = { bare: await servers.bare.url, nest: await servers.nest.url };
    await run(urls.nest); // warm-ups are discarded
    await run(urls.bare);
    const runs = { bare: [], nest: [] };
    for (let round = 0; round < ROUNDS; round++) {
      runs.nest.push(await run(urls.nest));
      runs.bare.push(await run(urls.bare));
    }
    console.log(`one constant JSON route, ${CONNECTIONS} connections, ${SECONDS}s per run, median of ${ROUNDS}, node ${process.version}`);
    const bare = median(runs.bare);
    const nest = median(runs.nest);
    for (const [label, r] of [['node:http', bare], ['NestJS on Express', nest]]) {
      console.log(`${label.padEnd(20)} ${r.requests.average.toFixed(0).padStart(7)} req/s   p50 ${r.latency.p50} ms   p99 ${r.latency.p99} ms   (${(1000 / r.requests.average).toFixed(3)} ms per request)`);
    }
    console.log(`  NestJS on Express: ${((nest.requests.average / bare.requests.average) * 100).toFixed(1)}% of node:http; ${(1000 / nest.requests.average - 1000 / bare.requests.average).toFixed(3)} ms more per request`);
  } finally {
    servers.bare.child.kill('SIGTERM');
    servers.nest.child.kill('SIGTERM');
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
