'use strict';
// Site insights at scale: a published site with BENCH_EVENTS (10 million) readers' events over 90 days, folded into
// daily counts by the real worker (rollup-site-insights), then aggregateSiteEvents through the API, against the same
// aggregates computed from the events themselves in the same run (the baseline: no daily counts).
// Target: aggregates under 50 ms. Usage: npm run build && npm run bench:insights
const { Client } = require('pg');
const { spawn } = require('node:child_process');
const path = require('node:path');
const { ROOT, REDIS_URL, uniqueName, createMigratedDatabase, dropDatabase, startApi, removeQueueKeys, percentile, writeResult } = require('./lib');
const { seed } = require('./seed');

const DB = uniqueName('insights');
const EVENTS = Number(process.env.BENCH_EVENTS || 10_000_000);
const DAYS = 90;
const REQUESTS = Number(process.env.BENCH_REQUESTS || 50);
/** The baseline reads every event of the range (seconds each): a few runs tell its time. */
const BASELINE_RUNS = 5;

/** Events spread evenly over the last DAYS days, in day order: 1,000 pages, 60 queries (10 find nothing), 20 referrers. */
async function seedEvents(client, siteId) {
  const perDay = Math.ceil(EVENTS / DAYS);
  for (let day = DAYS - 1; day >= 0; day--) {
    await client.query(
      `INSERT INTO site_insight_events (site_id, received_at, occurred_at, day, type, visitor, session, display_context, site_space_id, space_id, page_id,
                                        url_path, referrer_domain, search_query, search_results, rating)
       SELECT $1, now() - interval '1 hour', ts, ts::date,
              CASE WHEN i % 10 = 0 THEN 'search_type_query' WHEN i % 50 = 1 THEN 'page_post_feedback' ELSE 'page_view' END,
              'v' || (i % 20000), 's' || (i % 60000), 'site', 'ss1', 'space000001', 'page' || (i % 1000),
              '/docs/page' || (i % 1000), 'ref' || (i % 20) || '.example.com',
              CASE WHEN i % 10 = 0 THEN 'query ' || (i % 60) END,
              CASE WHEN i % 10 = 0 THEN CASE WHEN i % 60 < 10 THEN 0 ELSE 5 END END,
              CASE WHEN i % 50 = 1 THEN (ARRAY['bad','ok','good'])[1 + i % 3] END
         FROM (SELECT i, date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' - make_interval(days => $2) + make_interval(secs => (i % 86400)) AS ts
                 FROM generate_series(1, $3::int) AS i) g`,
      [siteId, day, perDay],
    );
  }
  await client.query('VACUUM ANALYZE site_insight_events');
}

function startWorker(env) {
  const child = spawn('node', [path.join(ROOT, 'dist/src/worker.js')], {
    env: { ...process.env, REDIS_URL, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return { stop: () => new Promise((resolve) => (child.exitCode !== null ? resolve() : (child.on('exit', resolve), child.kill('SIGTERM')))) };
}

async function timeEach(run, runs = REQUESTS) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95) };
}

/** Each aggregate asked of the API, and the same answer computed from the events (the baseline). */
const CASES = [
  {
    name: 'events per day, last 3 months',
    body: { range: 'last3Months', select: [{ column: 'datetime', interval: 'day' }, { column: 'eventsCount' }, { column: 'visitorsCount' }] },
    sql: `SELECT date_trunc('day', occurred_at), count(*), count(DISTINCT (day, visitor)) FROM site_insight_events WHERE site_id = $1 AND occurred_at >= now() - interval '91 days' GROUP BY 1 ORDER BY 1`,
  },
  {
    name: 'top pages by views, last 30 days',
    body: { range: 'last30Days', select: [{ column: 'page' }, { column: 'eventsCount' }], where: [{ column: 'eventType', values: ['page_view'] }], limit: 20 },
    sql: `SELECT page_id, count(*) FROM site_insight_events WHERE site_id = $1 AND type = 'page_view' AND occurred_at >= now() - interval '30 days' GROUP BY 1 ORDER BY 2 DESC LIMIT 20`,
  },
  {
    name: 'searches that found nothing, last 30 days',
    body: { range: 'last30Days', select: [{ column: 'eventSearchQuery' }, { column: 'eventsCount' }], where: [{ column: 'eventSearchResultsCount', values: [0] }] },
    sql: `SELECT search_query, count(*) FROM site_insight_events WHERE site_id = $1 AND search_results = 0 AND occurred_at >= now() - interval '30 days' GROUP BY 1 ORDER BY 2 DESC`,
  },
  {
    name: 'referrers, last 3 months',
    body: { range: 'last3Months', select: [{ column: 'referrerDomain' }, { column: 'eventsCount' }] },
    sql: `SELECT referrer_domain, count(*) FROM site_insight_events WHERE site_id = $1 AND occurred_at >= now() - interval '91 days' GROUP BY 1 ORDER BY 2 DESC`,
  },
];

async function main() {
  const databaseUrl = await createMigratedDatabase(DB);
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  let api;
  let worker;
  try {
    const { token, organizationId } = await seed(databaseUrl, { spaces: 10 });
    api = startApi({ DATABASE_URL: databaseUrl, QUEUE_PREFIX: DB, PUBLIC_URL: 'http://localhost' });
    const base = await api.url;
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const site = await (await fetch(`${base}/v1/orgs/${organizationId}/sites`, { method: 'POST', headers, body: JSON.stringify({ title: 'Bench' }) })).json();
    await fetch(`${base}/v1/orgs/${organizationId}/sites/${site.id}/publish`, { method: 'POST', headers });

    let started = Date.now();
    await seedEvents(client, site.id);
    const [{ n }] = (await client.query('SELECT count(*)::int AS n FROM site_insight_events')).rows;
    console.log(`seeded ${n.toLocaleString('en')} events over ${DAYS} days in ${((Date.now() - started) / 1000).toFixed(1)} s`);

    started = Date.now();
    worker = startWorker({ DATABASE_URL: databaseUrl, QUEUE_PREFIX: DB, INSIGHTS_ROLLUP_EVERY_MS: '1000', INSIGHTS_SETTLE_MS: '0', INSIGHTS_EVENTS_RETENTION_DAYS: '365' });
    const [{ last }] = (await client.query('SELECT max(id)::text AS last FROM site_insight_events')).rows;
    for (;;) {
      const state = (await client.query('SELECT last_event_id::text AS at FROM site_insight_rollup_state WHERE id = 1')).rows[0];
      if (state?.at === last) break;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    const [{ rows: countRows }] = (await client.query('SELECT count(*)::int AS rows FROM site_insight_counts')).rows;
    console.log(`the worker folded them into ${countRows.toLocaleString('en')} daily count rows in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    await client.query('VACUUM ANALYZE site_insight_counts');

    const results = [];
    for (const c of CASES) {
      const ask = async () => {
        const res = await fetch(`${base}/v1/orgs/${organizationId}/sites/${site.id}/insights/events/aggregate`, { method: 'POST', headers, body: JSON.stringify(c.body) });
        if (res.status !== 200) throw new Error(`${c.name}: ${res.status} ${await res.text()}`);
        await res.json();
      };
      await ask(); // warm-up
      const ours = await timeEach(ask);
      const baseline = await timeEach(() => client.query(c.sql, [site.id]), BASELINE_RUNS);
      results.push({ name: c.name, ours, baseline });
      console.log(`${c.name}: API p50 ${ours.p50.toFixed(1)} ms, p95 ${ours.p95.toFixed(1)} ms | from the events (baseline, SQL only) p50 ${baseline.p50.toFixed(1)} ms, p95 ${baseline.p95.toFixed(1)} ms`);
    }
    const worst = Math.max(...results.map((r) => r.ours.p95));
    console.log(`node ${process.version}; ${REQUESTS} sequential requests per case (baseline: ${BASELINE_RUNS} runs); worst p95 ${worst.toFixed(1)} ms (target: under 50 ms)`);
    writeResult({ events: n, results });
  } finally {
    await client.end();
    if (worker) await worker.stop();
    if (api) await api.stop();
    await dropDatabase(DB);
    await removeQueueKeys(DB);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
