'use strict';
// Webhook fan-out: 1,000 events (PATCH of a space each) to 10 webhooks on a local receiver: deliveries per second
// and the delay from the event's commit to its arrival (p50, p99), through the API, the outbox, the worker's
// dispatcher and the deliver-webhook jobs. Baseline in the same run: the same 10,000 signed POSTs sent straight
// to the same receiver with the worker's concurrency (the floor the machine allows).
// Usage: npm run build && npm run bench:webhooks   (BENCH_EVENTS, BENCH_WEBHOOKS to tune)
const { createHmac, randomBytes } = require('node:crypto');
const { createServer } = require('node:http');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { ROOT, REDIS_URL, uniqueName, createMigratedDatabase, dropDatabase, startApi, removeQueueKeys, percentile } = require('./lib');
const { seed } = require('./seed');

const DB = uniqueName('fanout');
const EVENTS = Number(process.env.BENCH_EVENTS || 1000);
const WEBHOOKS = Number(process.env.BENCH_WEBHOOKS || 10);
const CONCURRENCY = 16; // the deliver-webhook job's concurrency per worker

function receiver() {
  const arrivals = [];
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const at = Date.now();
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      arrivals.push({ at, created: body.createdAt ? Date.parse(body.createdAt) : at });
      res.end('ok');
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, arrivals, url: `http://127.0.0.1:${server.address().port}` })));
}

async function until(what, check, timeoutMs) {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** The floor: the same number of signed JSON POSTs, CONCURRENCY at a time, from this process. */
async function baseline(url, total) {
  const body = JSON.stringify({ object: 'event', id: 'x', type: 'space.updated', resource: { object: 'space', title: 'x'.repeat(600) } });
  let next = 0;
  const started = Date.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < total) {
        next++;
        const t = Math.floor(Date.now() / 1000);
        const signature = createHmac('sha256', 'secret').update(`${t}.${body}`).digest('hex');
        const res = await fetch(`${url}/baseline`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-webhook-signature': `t=${t},v1=${signature}` }, body });
        await res.text();
      }
    }),
  );
  return total / ((Date.now() - started) / 1000);
}

async function main() {
  const databaseUrl = await createMigratedDatabase(DB);
  const sink = await receiver();
  let api;
  let worker;
  try {
    const { token, organizationId } = await seed(databaseUrl, { spaces: EVENTS });
    const env = { DATABASE_URL: databaseUrl, QUEUE_PREFIX: DB, PUBLIC_URL: 'http://localhost', SECRETS_KEY: randomBytes(32).toString('base64'), OUTBOUND_ALLOW_PRIVATE: 'true', LOG_LEVEL: 'warn' };
    api = startApi(env);
    // BENCH_PROFILE_DIR: a CPU profile of the worker too (node --cpu-prof), written when it stops.
    const profile = process.env.BENCH_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : [];
    worker = spawn('node', [...profile, path.join(ROOT, 'dist/src/worker.js')], { env: { ...process.env, REDIS_URL, ...env, MIGRATIONS_RUN: 'false' }, stdio: ['ignore', 'ignore', 'inherit'] });
    const base = await api.url;
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    for (let i = 0; i < WEBHOOKS; i++) {
      const res = await fetch(`${base}/v1/orgs/${organizationId}/webhooks`, { method: 'POST', headers, body: JSON.stringify({ url: `${sink.url}/hook${i}`, events: ['space.updated'] }) });
      if (res.status !== 201) throw new Error(`webhook not created: ${res.status} ${await res.text()}`);
    }
    // Let the worker start (its first sweep and LISTEN) before the clock starts.
    await new Promise((r) => setTimeout(r, 3000));
    const floor = await baseline(sink.url, EVENTS * WEBHOOKS);
    sink.arrivals.length = 0;

    const started = Date.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        while (next < EVENTS) {
          const i = ++next;
          const res = await fetch(`${base}/v1/spaces/space${String(i).padStart(6, '0')}`, { method: 'PATCH', headers, body: JSON.stringify({ title: `Event ${i}` }) });
          if (res.status !== 200) throw new Error(`PATCH answered ${res.status}`);
          await res.text();
        }
      }),
    );
    const committed = Date.now();
    const expected = EVENTS * WEBHOOKS;
    await until(`${expected} deliveries`, async () => sink.arrivals.length >= expected, 600000);
    const finished = Math.max(...sink.arrivals.map((a) => a.at));
    const delays = sink.arrivals.map((a) => a.at - a.created).sort((a, b) => a - b);
    const rate = expected / ((finished - started) / 1000);
    console.log(`node ${process.version}; ${EVENTS} events x ${WEBHOOKS} webhooks = ${expected} deliveries; one API, one worker (deliver-webhook concurrency ${CONCURRENCY})`);
    console.log(`events committed in            ${((committed - started) / 1000).toFixed(2)} s (${(EVENTS / ((committed - started) / 1000)).toFixed(0)} PATCH/s)`);
    console.log(`all delivered after            ${((finished - started) / 1000).toFixed(2)} s`);
    console.log(`deliveries per second          ${rate.toFixed(0)}   (baseline: bare signed POSTs to the same receiver ${floor.toFixed(0)}/s, ${((rate / floor) * 100).toFixed(1)}%)`);
    console.log(`delay commit -> delivery       p50 ${percentile(delays, 50)} ms   p99 ${percentile(delays, 99)} ms   max ${delays[delays.length - 1]} ms`);
  } finally {
    if (worker && worker.exitCode === null) {
      worker.kill('SIGTERM');
      await new Promise((r) => worker.on('exit', r));
    }
    if (api) await api.stop();
    sink.server.close();
    await dropDatabase(DB);
    await removeQueueKeys(DB);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
