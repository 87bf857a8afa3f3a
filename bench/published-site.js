'use strict';
// Published-site benchmark: readers' requests per second for a rendered page of a 1,000-page space,
// against a bare node:http server answering the same bytes from memory, in one run (target: at least
// 50% of it once warm); and the cost of the first view of a page after a merge changed it.
// Usage: npm run build && npm run bench:published   (BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_FIRST_VIEWS to tune)
const { fork } = require('node:child_process');
const { mkdtempSync, writeFileSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const path = require('node:path');
const autocannon = require('autocannon');
const { uniqueName, dbUrl, admin, dropDatabase, startApi, removeQueueKeys, timed, jsonCaller } = require('./lib');
const { body, seedSpace, seedContext } = require('./content-seed');

const ROOT = path.join(__dirname, '..');
const DB = uniqueName('published');
const SECONDS = Number(process.env.BENCH_SECONDS || 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 32);
const FIRST_VIEWS = Number(process.env.BENCH_FIRST_VIEWS || 20);

function load(url) {
  return new Promise((resolve, reject) => autocannon({ url, connections: CONNECTIONS, duration: SECONDS }, (err, result) => (err ? reject(err) : resolve(result))));
}

function line(label, r) {
  return `${label.padEnd(30)} ${r.requests.average.toFixed(0).padStart(7)} req/s   p50 ${String(r.latency.p50).padStart(4)} ms   p99 ${String(r.latency.p99).padStart(4)} ms   non-2xx ${r.non2xx}`;
}

function p50(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function main() {
  await admin(`CREATE DATABASE ${DB}`);
  process.env.DATABASE_URL = dbUrl(DB);
  process.env.QUEUE_PREFIX = DB;
  process.env.LOG_LEVEL = 'warn';
  process.env.PUBLIC_URL = 'http://localhost';
  const tmp = mkdtempSync(path.join(tmpdir(), 'bench-published-'));
  let bare;
  let server;
  try {
    const { app, services, user, token, organization } = await seedContext(ROOT);
    const spaceId = await seedSpace(app, services, dbUrl(DB), { orgId: organization.id, userId: user.id, title: 'Handbook', count: 1000 });
    await app.close();

    server = startApi({});
    const base = await server.url;
    const call = jsonCaller(`${base}/v1`, token);
    const site = await call('POST', `/orgs/${organization.id}/sites`, { title: 'Bench docs', spaces: [spaceId] });
    await call('PATCH', `/orgs/${organization.id}/sites/${site.id}`, { basename: 'bench' });
    await call('POST', `/orgs/${organization.id}/sites/${site.id}/publish`);

    const pageUrl = `${base}/sites/bench/page-500`;
    const first = await fetch(pageUrl);
    if (first.status !== 200) throw new Error(`the page answered ${first.status}`);
    const bytes = Buffer.from(await first.arrayBuffer());
    const file = path.join(tmp, 'page.html');
    writeFileSync(file, bytes);
    bare = fork(path.join(__dirname, 'static-server.js'), { env: { ...process.env, STATIC_BODY_FILE: file }, stdio: 'ignore' });
    const bareUrl = await new Promise((resolve) => bare.once('message', ({ port }) => resolve(`http://127.0.0.1:${port}/`)));

    console.log(`node ${process.version}; a 1,000-page space; page of ${bytes.length} bytes; ${CONNECTIONS} connections, ${SECONDS}s per run`);
    await load(pageUrl); // warm-up, discarded
    const ours = await load(pageUrl);
    const theirs = await load(bareUrl);
    console.log(line('ours  GET /sites/bench/page-500', ours));
    console.log(line('bare  same bytes from memory', theirs));
    console.log(`  our share of the bare server's throughput: ${((ours.requests.average / theirs.requests.average) * 100).toFixed(1)}%`);

    const firsts = [];
    const warm = [];
    for (let round = 0; round < FIRST_VIEWS; round++) {
      const cr = await call('POST', `/spaces/${spaceId}/change-requests`, { subject: `Edit ${round}` });
      await call('POST', `/spaces/${spaceId}/change-requests/${cr.id}/content`, { changes: [{ operation: 'update_page', page: 'p500', document: { markdown: body(500) + `\nEdited in round ${round}.\n` } }] });
      await call('POST', `/spaces/${spaceId}/change-requests/${cr.id}/merge`);
      firsts.push(await timed(async () => {
        const res = await fetch(pageUrl);
        const text = await res.text();
        if (!text.includes(`Edited in round ${round}.`)) throw new Error('the first view after the merge did not show the merged content');
      }));
      warm.push(await timed(async () => (await fetch(pageUrl)).text()));
    }
    console.log(`first view after a merge: p50 ${p50(firsts).toFixed(1)} ms; the next view: p50 ${p50(warm).toFixed(1)} ms (n=${FIRST_VIEWS}, sequential)`);
  } finally {
    bare?.kill('SIGTERM');
    await server?.stop();
    rmSync(tmp, { recursive: true, force: true });
    await dropDatabase(DB);
    await removeQueueKeys(DB);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
