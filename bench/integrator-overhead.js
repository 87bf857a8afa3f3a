'use strict';
// Integrator features' overhead: GET /v1/spaces/{id} and PATCH /v1/spaces/{id} against the same API with
// rate limits and idempotency keys on and off, in one run (target: under 10% added). Budgets are set high so
// nothing is refused: what is measured is the cost of counting (one store round trip per budget) and, on the
// PATCH (each with a fresh Idempotency-Key), of claiming the key and storing the answer.
// Usage: npm run build && npm run bench:overhead   (BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_ROUNDS to tune)
const autocannon = require('autocannon');
const { uniqueName, createMigratedDatabase, dropDatabase, startApi, removeQueueKeys } = require('./lib');
const { seed } = require('./seed');

const DB = uniqueName('overhead');
const SECONDS = Number(process.env.BENCH_SECONDS || 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS || 3);

function median(runs) {
  return [...runs].sort((a, b) => a.requests.average - b.requests.average)[Math.floor(runs.length / 2)];
}

function run(options) {
  return new Promise((resolve, reject) => autocannon({ connections: CONNECTIONS, duration: SECONDS, ...options }, (err, result) => (err ? reject(err) : resolve(result))));
}

let counter = 0;
let keys = 0;
/** autocannon's per-request hook: the next space of the seeded 1,000, with a key never used before. */
function nextSpace(request) {
  counter = (counter % 1000) + 1;
  keys++;
  return { ...request, path: `/v1/spaces/space${String(counter).padStart(6, '0')}`, headers: { ...request.headers, 'idempotency-key': `bench-${process.pid}-${keys}` } };
}

function line(label, r) {
  return `${label.padEnd(40)} ${r.requests.average.toFixed(0).padStart(6)} req/s   p50 ${String(r.latency.p50).padStart(4)} ms   p99 ${String(r.latency.p99).padStart(4)} ms   non-2xx ${r.non2xx}`;
}

async function main() {
  const databaseUrl = await createMigratedDatabase(DB);
  const servers = [];
  try {
    const { token, spaceId } = await seed(databaseUrl, { spaces: 1000 });
    const common = { DATABASE_URL: databaseUrl, QUEUE_PREFIX: DB, PUBLIC_URL: 'http://localhost', RATE_LIMIT_TOKEN_READS: '100000000', RATE_LIMIT_TOKEN_WRITES: '100000000', RATE_LIMIT_ADDRESS_READS: '100000000', RATE_LIMIT_ADDRESS_WRITES: '100000000' };
    const off = startApi({ ...common, RATE_LIMITS: 'off', IDEMPOTENCY: 'off' });
    const on = startApi({ ...common, RATE_LIMITS: 'on', IDEMPOTENCY: 'on' });
    servers.push(off, on);
    const [offBase, onBase] = await Promise.all([off.url, on.url]);
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const check = await fetch(`${onBase}/v1/spaces/${spaceId}`, { headers });
    if (!check.headers.get('x-ratelimit-limit')) throw new Error('rate limits are not on in the "on" server');
    console.log(`node ${process.version}; ${CONNECTIONS} connections, ${SECONDS}s per run; the same database and Redis`);
    const cases = [
      ['GET /v1/spaces/{id}', { url: `/v1/spaces/${spaceId}`, method: 'GET', headers }],
      // Each request writes another of the 1,000 spaces, so concurrent writes do not race on one row.
      ['PATCH /v1/spaces/{id}', { url: `/v1/spaces/${spaceId}`, method: 'PATCH', headers, body: JSON.stringify({ emoji: '1f4d8' }), requests: [{ setupRequest: nextSpace }] }],
    ];
    for (const [label, options] of cases) {
      await run({ ...options, url: onBase + options.url }); // warm-ups, discarded
      await run({ ...options, url: offBase + options.url });
      // Off and on alternate, ROUNDS times: this machine's throughput drifts more between runs than the
      // difference measured, so each side's median is compared.
      const offRuns = [];
      const onRuns = [];
      for (let round = 0; round < ROUNDS; round++) {
        offRuns.push(await run({ ...options, url: offBase + options.url }));
        onRuns.push(await run({ ...options, url: onBase + options.url }));
      }
      const without = median(offRuns);
      const withLimits = median(onRuns);
      console.log(line(`off  ${label} (median of ${ROUNDS})`, without));
      console.log(line(`on   ${label} (median of ${ROUNDS})`, withLimits));
      console.log(`  each run off/on: ${offRuns.map((r, i) => `${r.requests.average.toFixed(0)}/${onRuns[i].requests.average.toFixed(0)}`).join(', ')} req/s`);
      const added = (1 - withLimits.requests.average / without.requests.average) * 100;
      console.log(`  throughput lost to rate limiting${label.startsWith('PATCH') ? ' and idempotency keys' : ''}: ${added.toFixed(1)}%`);
    }
  } finally {
    for (const server of servers) await server.stop();
    await dropDatabase(DB);
    await removeQueueKeys(DB);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
