'use strict';
// Content benchmark, on a space of 1,000 pages and one of 10,000: merge of a change request touching
// 10 pages, page read, page list and space search, printing p50/p95/p99 of sequential requests.
// Targets: merge p50 < 100 ms at 1,000 pages; search p95 < 50 ms at 10,000 pages.
// Usage: npm run build && npm run bench:content   (BENCH_MERGES, BENCH_READS, BENCH_SEARCHES to tune)
const path = require('node:path');
const { uniqueName, dbUrl, withDatabase, startApi, timed, jsonCaller } = require('./lib');
const { body, seedSpace: seedInto, seedContext, WORDS } = require('./content-seed');

const ROOT = path.join(__dirname, '..');
const DB = uniqueName('content');
const MERGES = Number(process.env.BENCH_MERGES || 30);
const READS = Number(process.env.BENCH_READS || 300);
const SEARCHES = Number(process.env.BENCH_SEARCHES || 300);


function percentiles(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
  return `p50 ${at(50).toFixed(1)} ms   p95 ${at(95).toFixed(1)} ms   p99 ${at(99).toFixed(1)} ms   (n=${sorted.length})`;
}


function main() {
  return withDatabase(DB, measure);
}

async function measure() {
  process.env.DATABASE_URL = dbUrl(DB);
  process.env.QUEUE_PREFIX = DB;
  process.env.LOG_LEVEL = 'warn';
  process.env.PUBLIC_URL = 'http://localhost';

  // The app's own services seed the data (migrations run at start, as in production).
  const { app, services, user, token, organization } = await seedContext(ROOT);
  const small = await seedInto(app, services, dbUrl(DB), { orgId: organization.id, userId: user.id, title: 'Thousand', count: 1000 });
  const large = await seedInto(app, services, dbUrl(DB), { orgId: organization.id, userId: user.id, title: 'Ten thousand', count: 10000 });
  await app.close();

  const server = startApi({});
  const call = jsonCaller(`${await server.url}/v1`, token);
  try {
    console.log(`node ${process.version}; merges ${MERGES}, reads ${READS}, searches ${SEARCHES} (sequential requests)`);

    for (const [label, spaceId, pages] of [['1,000', small, 1000], ['10,000', large, 10000]]) {
      const rounds = pages > 1000 ? Math.max(5, Math.round(MERGES / 3)) : MERGES;
      const merges = [];
      for (let m = 0; m < rounds; m++) {
        const cr = await call('POST', `/spaces/${spaceId}/change-requests`, { subject: `Edit ${m}` });
        const changes = Array.from({ length: 10 }, (_, k) => {
          const i = (m * 10 + k) % pages;
          return { operation: 'update_page', page: `p${i}`, document: { markdown: body(i) + `\nEdited in round ${m}.\n` } };
        });
        await call('POST', `/spaces/${spaceId}/change-requests/${cr.id}/content`, { changes });
        merges.push(await timed(() => call('POST', `/spaces/${spaceId}/change-requests/${cr.id}/merge`)));
      }
      console.log(`[${label} pages] merge of a CR touching 10 pages: ${percentiles(merges)}`);

      const reads = [];
      for (let r = 0; r < READS; r++) reads.push(await timed(() => call('GET', `/spaces/${spaceId}/content/page/p${(r * 13) % pages}`)));
      console.log(`[${label} pages] page read (document):         ${percentiles(reads)}`);

      const lists = [];
      for (let r = 0; r < Math.max(10, READS / (pages > 1000 ? 30 : 10)); r++) lists.push(await timed(() => call('GET', `/spaces/${spaceId}/content/pages`)));
      console.log(`[${label} pages] page list:                    ${percentiles(lists)}`);

      const searches = [];
      for (let q = 0; q < SEARCHES; q++) {
        const query = `${WORDS[q % WORDS.length]} ${WORDS[(q * 5 + 1) % WORDS.length]}`;
        searches.push(await timed(() => call('GET', `/spaces/${spaceId}/search?query=${encodeURIComponent(query)}&limit=20`)));
      }
      console.log(`[${label} pages] space search:                 ${percentiles(searches)}`);
    }
  } finally {
    await server.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
