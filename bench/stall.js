'use strict';
// Stall benchmark: one client sends the bodies that used to stall the event loop (90,000 unknown
// keys, pathological markdown) while another client measures GET /v1/user; target: p99 < 50 ms.
// Usage: npm run build && node bench/stall.js   (STALL_SECONDS to tune; starts its own server on
// a database and queue prefix of its own, removed afterwards)
const { uniqueName, createMigratedDatabase, dropDatabase, startApi, removeQueueKeys, percentile } = require('./lib');
const { seed } = require('./seed');

const DB = uniqueName('stall');
const SECONDS = Number(process.env.STALL_SECONDS || 15);

/** The other tenant: sequential GET /v1/user for `seconds`, latencies in ms. */
async function measure(base, token, seconds) {
  const latencies = [];
  const end = Date.now() + seconds * 1000;
  while (Date.now() < end) {
    const start = process.hrtime.bigint();
    const res = await fetch(`${base}/v1/user`, { headers: { authorization: `Bearer ${token}` } });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`GET /v1/user answered ${res.status}`);
    latencies.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  latencies.sort((a, b) => a - b);
  return { n: latencies.length, p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: latencies[latencies.length - 1] };
}

function fmt(r) {
  return `n ${String(r.n).padStart(5)}   p50 ${r.p50.toFixed(1).padStart(6)} ms   p99 ${r.p99.toFixed(1).padStart(6)} ms   max ${r.max.toFixed(1).padStart(7)} ms`;
}

async function main() {
  let server;
  try {
    const databaseUrl = await createMigratedDatabase(DB);
    const { token, organizationId } = await seed(databaseUrl, { spaces: 10 });
    server = startApi({ DATABASE_URL: databaseUrl, QUEUE_PREFIX: DB, PUBLIC_URL: 'http://localhost' });
    const base = await server.url;
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const call = async (method, route, body) => {
      const res = await fetch(base + route, { method, headers, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) });
      const text = await res.text();
      return { status: res.status, bytes: text.length, json: () => JSON.parse(text) };
    };

    const space = await call('POST', `/v1/orgs/${organizationId}/spaces`, { title: 'Stall' });
    if (space.status !== 201) throw new Error(`space not created: ${space.status}`);
    const spaceId = space.json().id;
    const cr = await call('POST', `/v1/spaces/${spaceId}/change-requests`, { subject: 'Stall' });
    if (cr.status !== 201) throw new Error(`change request not created: ${cr.status}`);
    const content = `/v1/spaces/${spaceId}/change-requests/${cr.json().id}/content`;
    const page = (markdown) => ({ changes: [{ operation: 'insert_page', title: 'Stall', document: { markdown } }] });

    const keys = '{' + Array.from({ length: 90_000 }, (_, i) => `"k${i.toString(36)}":0`).join(',') + '}';
    const attacks = [
      ['PATCH /v1/spaces/x, 90,000 unknown keys', 'PATCH', '/v1/spaces/x', keys],
      ['markdown "*[" x 100,000', 'POST', content, page('*['.repeat(100_000))],
      ['markdown "[a](b)" x 50,000', 'POST', content, page('[a](b)'.repeat(50_000))],
      // Just under both markdown bounds: the most a write may cost (5,000 markup characters, 2,500 links).
      ['markdown at the bounds: "[a](b) " x 2,500', 'POST', content, page('[a](b) '.repeat(2_500))],
    ];

    console.log(`${new Date().toISOString().slice(0, 10)}  node ${process.version}  ${SECONDS}s per phase, one attacker connection, one measuring client`);
    await measure(base, token, 2); // warm-up
    console.log(`GET /v1/user alone                 ${fmt(await measure(base, token, SECONDS))}`);

    const stats = attacks.map(([label]) => ({ label, n: 0, statuses: new Set(), ms: 0, bytes: 0 }));
    let stop = false;
    const attacker = (async () => {
      for (let i = 0; !stop; i = (i + 1) % attacks.length) {
        const [, method, route, body] = attacks[i];
        const start = Date.now();
        const res = await call(method, route, body);
        const s = stats[i];
        s.n++;
        s.ms += Date.now() - start;
        s.bytes = res.bytes;
        s.statuses.add(res.status);
      }
    })();
    const loaded = await measure(base, token, SECONDS);
    stop = true;
    await attacker;
    console.log(`GET /v1/user during the attack     ${fmt(loaded)}   target p99 < 50 ms: ${loaded.p99 < 50 ? 'met' : 'MISSED'}`);
    for (const s of stats) {
      console.log(`  ${s.label.padEnd(44)} ${String(s.n).padStart(4)} sent   status ${[...s.statuses].join('/')}   ${(s.ms / Math.max(1, s.n)).toFixed(0).padStart(5)} ms each   answer ${s.bytes} bytes`);
    }
  } finally {
    await server?.stop();
    await dropDatabase(DB);
    await removeQueueKeys(DB);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
