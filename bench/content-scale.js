'use strict';
// Content at scale: spaces of 1,000, 10,000 and 100,000 pages, in one run on one server.
//  - merge of a change request touching 10 pages, when the space did not move since the change
//    request was made (fast-forward) and when another change request touching 10 other pages was
//    merged first (a real three-way merge); p50 per size and the ratio to the 1,000-page space
//    (targets: 10,000 / 1,000 at most 1.5x, 100,000 / 1,000 at most 2x);
//  - the content edit that makes each change request (10 pages updated), p50 per size;
//  - page tree read (getCurrentRevision) at 10,000 pages (target p50 under 50 ms), and the first read of
//    the revision a 10-page merge makes after it;
//  - space search at 100,000 pages (target p95 under 200 ms);
//  - with BENCH_LINKS=1 (three links per page), the first link list of the current revision (which writes
//    its link rows) and later ones.
// Usage: npm run build && npm run bench:scale   (BENCH_SIZES=1000,10000 to skip the largest;
// BENCH_MERGES, BENCH_READS, BENCH_SEARCHES to tune)
const { Client } = require('pg');
const { uniqueName, dbUrl, withDatabase, startApi, ROOT, timed, jsonCaller, writeResult } = require('./lib');
const { body, seedSpace, seedContext, WORDS } = require('./content-seed');

const DB = uniqueName('scale');
const SIZES = (process.env.BENCH_SIZES || '1000,10000,100000').split(',').map(Number);
const MERGES = Number(process.env.BENCH_MERGES || 15);
const READS = Number(process.env.BENCH_READS || 50);
const SEARCHES = Number(process.env.BENCH_SEARCHES || 200);
const LINKS = process.env.BENCH_LINKS === '1';

function stats(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
  return { p50: at(50), p95: at(95), p99: at(99), n: sorted.length };
}
const show = (s) => `p50 ${s.p50.toFixed(1)} ms   p95 ${s.p95.toFixed(1)} ms   p99 ${s.p99.toFixed(1)} ms   (n=${s.n})`;

function main() {
  return withDatabase(DB, measure);
}

async function measure() {
  process.env.DATABASE_URL = dbUrl(DB);
  process.env.QUEUE_PREFIX = DB;
  process.env.LOG_LEVEL = 'warn';
  process.env.PUBLIC_URL = 'http://localhost';

  const { app, services, user, token, organization } = await seedContext(ROOT);
  const spaces = [];
  for (const count of SIZES) {
    const started = Date.now();
    const id = await seedSpace(app, services, dbUrl(DB), { orgId: organization.id, userId: user.id, title: `${count} pages`, count });
    console.log(`seeded ${count.toLocaleString('en')} pages in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    spaces.push({ count, id });
  }
  await app.close();
  // Seeding wrote hundreds of thousands of rows: let statistics settle before anything is timed.
  const client = new Client({ connectionString: dbUrl(DB) });
  await client.connect();
  await client.query('VACUUM ANALYZE');
  await client.end();

  const server = startApi({});
  const base = `${await server.url}/v1`;
  const call = jsonCaller(base, token);
  const changeRequest = async (spaceId, pages, round, offset) => {
    const cr = await call('POST', `/spaces/${spaceId}/change-requests`, { subject: `Edit ${round}` });
    const changes = Array.from({ length: 10 }, (_, k) => {
      const i = (round * 37 + offset + k * 101) % pages;
      return { operation: 'update_page', page: `p${i}`, document: { markdown: body(i) + `\nEdited in round ${round}.\n` } };
    });
    const edit = await timed(() => call('POST', `/spaces/${spaceId}/change-requests/${cr.id}/content`, { changes }));
    if (round > 0) results.get(pages).edit.push(edit);
    return cr.id;
  };

  const results = new Map(spaces.map(({ count }) => [count, { fastForward: [], threeWay: [], edit: [] }]));
  try {
    console.log(`node ${process.version}; ${MERGES} merges of each kind per size, sizes interleaved round by round, sequential requests`);
    // A first round warms the server's caches of each space, as any space in use is.
    for (const { count, id } of spaces) await call('POST', `/spaces/${id}/change-requests/${await changeRequest(id, count, 0, 0)}/merge`);
    // Sizes take turns each round, so background work (autovacuum after seeding, a checkpoint) falls on all of them.
    for (let round = 1; round <= MERGES; round++) {
      for (const { count, id } of spaces) {
        const row = results.get(count);
        const first = await changeRequest(id, count, round, 0);
        row.fastForward.push(await timed(() => call('POST', `/spaces/${id}/change-requests/${first}/merge`)));
        const a = await changeRequest(id, count, round, 13);
        const b = await changeRequest(id, count, round, 29);
        await call('POST', `/spaces/${id}/change-requests/${a}/merge`);
        row.threeWay.push(await timed(() => call('POST', `/spaces/${id}/change-requests/${b}/merge`)));
      }
    }
    for (const { count, id } of spaces) {
      const label = count.toLocaleString('en');
      const row = results.get(count);
      row.fastForward = stats(row.fastForward);
      row.threeWay = stats(row.threeWay);
      row.edit = stats(row.edit);
      console.log(`[${label} pages] merge, space unchanged since the CR:   ${show(row.fastForward)}`);
      console.log(`[${label} pages] merge after another CR was merged:  ${show(row.threeWay)}`);
      console.log(`[${label} pages] content edit of a CR (10 pages):     ${show(row.edit)}`);

      // Timed until the last byte is in: what the client does with the megabytes after that (JSON.parse
      // of 8 MB at 10,000 pages) is the client's, and is shown apart. The first read of a revision
      // presents and serializes its tree; later reads of it come from the cache of presented trees.
      const readTree = () => fetch(`${base}/spaces/${id}/content`, { headers: { authorization: `Bearer ${token}` } }).then((res) => res.arrayBuffer());
      let bytes;
      row.firstTree = await timed(async () => (bytes = await readTree()));
      const trees = [];
      // The full tree with every page's markdown is megabytes at 100,000 pages: a few reads there.
      for (let r = 0; r < (count > 10000 ? Math.min(READS, 3) : READS); r++) trees.push(await timed(readTree));
      row.tree = stats(trees);
      // A change request touching 10 pages is merged (round 0: not counted with the edits above): the new revision's first read presents only
      // the pages on changed paths and copies the JSON of the others from the revision read before.
      await call('POST', `/spaces/${id}/change-requests/${await changeRequest(id, count, 0, 7)}/merge`);
      row.afterMerge = await timed(readTree);
      const parse = await timed(() => JSON.parse(Buffer.from(bytes).toString('utf8')));
      console.log(`[${label} pages] page tree read (getCurrentRevision), first read of the revision: ${row.firstTree.toFixed(1)} ms`);
      console.log(`[${label} pages] page tree read (getCurrentRevision), again: ${show(row.tree)}   (${(bytes.byteLength / 1e6).toFixed(1)} MB; client's JSON.parse ${parse.toFixed(1)} ms)`);
      console.log(`[${label} pages] page tree read, first read of the revision a 10-page merge made after it: ${row.afterMerge.toFixed(1)} ms`);

      if (LINKS) {
        // The current revision was committed over a base with many links: its link rows are written
        // by the first link read (from the nearest revision whose rows are written), then read as they are.
        const firstLinks = await timed(() => call('GET', `/spaces/${id}/links?limit=20`));
        const again = [];
        for (let r = 0; r < 5; r++) again.push(await timed(() => call('GET', `/spaces/${id}/links?limit=20`)));
        console.log(`[${label} pages] link list, first read of the revision: ${firstLinks.toFixed(1)} ms; again: ${show(stats(again))}`);
      }

      const searches = [];
      for (let q = 0; q < SEARCHES; q++) {
        const query = `${WORDS[q % WORDS.length]} ${WORDS[(q * 5 + 1) % WORDS.length]}`;
        searches.push(await timed(() => call('GET', `/spaces/${id}/search?query=${encodeURIComponent(query)}&limit=20`)));
      }
      row.search = stats(searches);
      console.log(`[${label} pages] space search:                       ${show(row.search)}`);
    }

    const small = results.get(SIZES[0]);
    console.log('\nsummary (same run, same machine)');
    for (const count of SIZES.slice(1)) {
      const row = results.get(count);
      const target = count >= 100000 ? 2 : 1.5;
      const ratio = (kind) => (row[kind].p50 / small[kind].p50).toFixed(2);
      console.log(
        `  merge p50 ${count.toLocaleString('en')} / ${SIZES[0].toLocaleString('en')} pages: ` +
          `${ratio('fastForward')}x (space unchanged), ${ratio('threeWay')}x (three-way)   target at most ${target}x; ` +
          `content edit ${ratio('edit')}x`,
      );
    }
    if (results.has(10000)) {
      const row = results.get(10000);
      console.log(`  page tree read p50 at 10,000 pages: ${row.tree.p50.toFixed(1)} ms (first read of a revision ${row.firstTree.toFixed(1)} ms)   target under 50 ms`);
    }
    if (results.has(100000)) console.log(`  space search p95 at 100,000 pages: ${results.get(100000).search.p95.toFixed(1)} ms   target under 200 ms`);
    writeResult(Object.fromEntries(results));
  } finally {
    await server.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
