'use strict';
// List page at scale: p50 of GET /v1/orgs/{id}/spaces?limit=50 (first page and a page deep in the list) for an
// organization of 1,000 spaces and one of 1,000,000, served by the same API in one run (target: at most 1.5x).
// Usage: npm run build && npm run bench:list   (BENCH_LARGE, BENCH_REQUESTS to tune)
const { Client } = require('pg');
const { uniqueName, createMigratedDatabase, dropDatabase, startApi, removeQueueKeys, percentile, writeResult } = require('./lib');
const { seed } = require('./seed');

const DB = uniqueName('listscale');
const SMALL = 1000;
const LARGE = Number(process.env.BENCH_LARGE || 1_000_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS || 200);

/** A second organization of `count` spaces, with the bench user as a member. */
async function seedLarge(databaseUrl, count) {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`INSERT INTO organizations (id, title, created_at) VALUES ('bigorg', 'Big', now())`);
    await client.query(`INSERT INTO organization_members (organization_id, user_id, role, joined_at) VALUES ('bigorg', 'benchuser', 'admin', now())`);
    for (let from = 1; from <= count; from += 100_000) {
      await client.query(
        `INSERT INTO spaces (id, organization_id, title, revision_id, position, created_at, updated_at)
         SELECT 'big' || lpad(i::text, 7, '0'), 'bigorg', 'Space ' || i, 'rev' || i, i,
                timestamp '2026-01-01' + (i || ' seconds')::interval, timestamp '2026-01-01' + (i || ' seconds')::interval
           FROM generate_series($1::int, $2::int) AS i`,
        [from, Math.min(count, from + 99_999)],
      );
    }
    await client.query('ANALYZE');
  } finally {
    await client.end();
  }
}

async function timed(url, headers) {
  const started = performance.now();
  const res = await fetch(url, { headers });
  const body = await res.json();
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
  return { ms: performance.now() - started, body };
}

async function measure(base, org, headers) {
  const first = [];
  let next;
  for (let i = 0; i < REQUESTS; i++) {
    const { ms, body } = await timed(`${base}/v1/orgs/${org}/spaces?limit=50`, headers);
    first.push(ms);
    next = body.next?.page;
  }
  // A page further in: follow ten cursors, then time that page.
  let page = next;
  for (let i = 0; i < 10 && page; i++) page = (await timed(`${base}/v1/orgs/${org}/spaces?limit=50&page=${encodeURIComponent(page)}`, headers)).body.next?.page;
  const deep = [];
  for (let i = 0; i < REQUESTS; i++) deep.push((await timed(`${base}/v1/orgs/${org}/spaces?limit=50&page=${encodeURIComponent(page)}`, headers)).ms);
  const sort = (xs) => [...xs].sort((a, b) => a - b);
  return { first: percentile(sort(first), 50), firstP99: percentile(sort(first), 99), deep: percentile(sort(deep), 50) };
}

async function main() {
  const databaseUrl = await createMigratedDatabase(DB);
  let api;
  try {
    const { token, organizationId } = await seed(databaseUrl, { spaces: SMALL });
    const seeded = Date.now();
    await seedLarge(databaseUrl, LARGE);
    console.log(`seeded ${LARGE.toLocaleString('en')} spaces in ${((Date.now() - seeded) / 1000).toFixed(1)} s`);
    api = startApi({ DATABASE_URL: databaseUrl, QUEUE_PREFIX: DB, PUBLIC_URL: 'http://localhost' });
    const base = await api.url;
    const headers = { authorization: `Bearer ${token}` };
    await measure(base, organizationId, headers); // warm-up
    const small = await measure(base, organizationId, headers);
    const large = await measure(base, 'bigorg', headers);
    const f = (ms) => `${ms.toFixed(1)} ms`;
    console.log(`node ${process.version}; ${REQUESTS} sequential requests per case, limit=50`);
    console.log(`${SMALL.toLocaleString('en')} spaces:     first page p50 ${f(small.first)} (p99 ${f(small.firstP99)}), 11th page p50 ${f(small.deep)}`);
    console.log(`${LARGE.toLocaleString('en')} spaces: first page p50 ${f(large.first)} (p99 ${f(large.firstP99)}), 11th page p50 ${f(large.deep)}`);
    console.log(`ratio (large / small), first page p50: ${(large.first / small.first).toFixed(2)}x; 11th page: ${(large.deep / small.deep).toFixed(2)}x (target <= 1.5x)`);
    writeResult({ small, large, spaces: { small: SMALL, large: LARGE } });
  } finally {
    if (api) await api.stop();
    await dropDatabase(DB);
    await removeQueueKeys(DB);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
