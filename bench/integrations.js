'use strict';
// Integration blocks on published pages: a page with three integration blocks against the same page
// without them, warm (requests per second, target: at least 80%), and their first views with nothing
// cached (target: the integration's own time plus at most 20 ms), against an integration service
// answering after BENCH_INTEGRATION_MS.
// Usage: npm run build && npm run bench:integrations   (BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_FIRST_VIEWS, BENCH_INTEGRATION_MS)
const http = require('node:http');
const { randomBytes } = require('node:crypto');
const path = require('node:path');
const { Client } = require('pg');
const autocannon = require('autocannon');
const { uniqueName, dbUrl, admin, dropDatabase, startApi, removeQueueKeys, timed, jsonCaller, percentile } = require('./lib');
const { body, seedContext } = require('./content-seed');

const ROOT = path.join(__dirname, '..');
const DB = uniqueName('integrations');
const SECONDS = Number(process.env.BENCH_SECONDS || 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 32);
const FIRST_VIEWS = Number(process.env.BENCH_FIRST_VIEWS || 30);
const SERVICE_MS = Number(process.env.BENCH_INTEGRATION_MS || 50);

function load(url) {
  return new Promise((resolve, reject) => autocannon({ url, connections: CONNECTIONS, duration: SECONDS }, (err, result) => (err ? reject(err) : resolve(result))));
}

function line(label, r) {
  return `${label.padEnd(34)} ${r.requests.average.toFixed(0).padStart(7)} req/s   p50 ${String(r.latency.p50).padStart(4)} ms   p99 ${String(r.latency.p99).padStart(4)} ms   non-2xx ${r.non2xx}`;
}

const blockTag = (service) => `{% integration integration="status" block="status" props="${JSON.stringify({ service }).replace(/"/g, '\\"')}" %}`;

/** A service that renders every block after SERVICE_MS, as an integration's own time. */
function startService() {
  let renders = 0;
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      if (req.url !== '/render') return res.writeHead(200).end('{}');
      renders++;
      const request = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ type: 'element', state: {}, props: request.props, element: { type: 'block', children: [{ type: 'markdown', content: `**${request.props.service}** is operational` }, { type: 'button', label: 'Report', onPress: { action: 'toggle' } }] } }));
      }, SERVICE_MS);
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${server.address().port}`, renders: () => renders })));
}

async function seedPages(app, services, { orgId, userId }) {
  const { ContentStore, SpacesService, ContentIndexer, newId, documentHash } = services;
  const spaceId = newId();
  const now = new Date().toISOString();
  const documents = new Map();
  const pages = [];
  for (let i = 0; i < FIRST_VIEWS + 1; i++) {
    const text = body(i).replace(/^# .*\n\n/, '');
    for (const [kind, markdown] of [['plain', text], ['blocks', `${text}\n${[0, 1, 2].map((k) => blockTag(`service-${i}-${k}`)).join('\n\n')}\n`]]) {
      const hash = documentHash(markdown);
      documents.set(hash, markdown);
      pages.push({ id: `${kind}${i}`, kind: 'document', title: `Page ${i}`, slug: `${kind}-${i}`, documentHash: hash, createdAt: now, updatedAt: now, pages: [] });
    }
  }
  const client = new Client({ connectionString: dbUrl(DB) });
  await client.connect();
  await client.query(`INSERT INTO spaces (id, organization_id, title, revision_id, position, created_at, updated_at, language) VALUES ($1, $2, 'Status', 'pending', 0, now(), now(), 'en')`, [spaceId, orgId]);
  await client.end();
  const revision = await app.get(ContentStore).commit({ spaceId, parents: [], type: 'edits', content: { pages, files: [], variables: {}, reusableContents: [] }, documents, createdBy: userId });
  await app.get(SpacesService).advanceRevision(spaceId, 'pending', revision.id);
  await app.get(ContentIndexer).revisionBecameCurrent(spaceId, null, revision.id);
  return spaceId;
}

async function main() {
  await admin(`CREATE DATABASE ${DB}`);
  const env = { OUTBOUND_ALLOW_PRIVATE: 'true', SECRETS_KEY: randomBytes(32).toString('base64'), PUBLIC_URL: 'http://localhost' };
  Object.assign(process.env, env, { DATABASE_URL: dbUrl(DB), QUEUE_PREFIX: DB, LOG_LEVEL: 'warn' });
  const service = await startService();
  let server;
  try {
    const { app, services, user, token, organization } = await seedContext(ROOT);
    const spaceId = await seedPages(app, services, { orgId: organization.id, userId: user.id });
    await app.close();

    server = startApi(env);
    const base = await server.url;
    const call = jsonCaller(`${base}/v1`, token);
    await call('POST', '/integrations/status', { organization: organization.id, endpoint: service.url, title: 'Status', description: '', scopes: ['space:content:read'], blocks: [{ id: 'status', title: 'Status' }], script: '' });
    const installation = await call('POST', '/integrations/status/installations', { organization: organization.id });
    await call('POST', `/integrations/status/installations/${installation.id}/spaces`, { space: spaceId });
    const site = await call('POST', `/orgs/${organization.id}/sites`, { title: 'Bench status', spaces: [spaceId] });
    await call('PATCH', `/orgs/${organization.id}/sites/${site.id}`, { basename: 'bench' });
    await call('POST', `/orgs/${organization.id}/sites/${site.id}/publish`);

    console.log(`node ${process.version}; pages of one space, 3 integration blocks each; the service answers after ${SERVICE_MS} ms; ${CONNECTIONS} connections, ${SECONDS}s per run`);
    // First views, nothing cached: each page once, with its own blocks' props.
    const plainFirst = [];
    const blocksFirst = [];
    for (let i = 1; i <= FIRST_VIEWS; i++) {
      plainFirst.push(await timed(async () => (await fetch(`${base}/sites/bench/plain-${i}`)).text()));
      blocksFirst.push(
        await timed(async () => {
          const text = await (await fetch(`${base}/sites/bench/blocks-${i}`)).text();
          if (!text.includes(`<strong>service-${i}-2</strong> is operational`)) throw new Error('a block did not render');
        }),
      );
    }
    const sorted = (samples) => [...samples].sort((a, b) => a - b);
    const [plain, blocks] = [sorted(plainFirst), sorted(blocksFirst)];
    // What the blocks add to the page's first view, beyond the service's own time: each page with blocks against its twin without.
    const added = sorted(blocksFirst.map((ms, i) => ms - plainFirst[i] - SERVICE_MS));
    console.log(`first view, page without blocks: p50 ${percentile(plain, 50).toFixed(1)} ms  p95 ${percentile(plain, 95).toFixed(1)} ms (n=${FIRST_VIEWS}, sequential)`);
    console.log(`first view, page with 3 blocks:  p50 ${percentile(blocks, 50).toFixed(1)} ms  p95 ${percentile(blocks, 95).toFixed(1)} ms`);
    console.log(`  the blocks add, beyond the integration's own ${SERVICE_MS} ms: p50 ${percentile(added, 50).toFixed(1)} ms  p95 ${percentile(added, 95).toFixed(1)} ms (target: at most 20 ms)`);

    const withBlocks = `${base}/sites/bench/blocks-0`;
    const without = `${base}/sites/bench/plain-0`;
    await load(withBlocks); // warm-up, discarded
    await load(without);
    const renders = service.renders();
    const a = await load(withBlocks);
    const b = await load(without);
    console.log(line('GET a page with 3 blocks (warm)', a));
    console.log(line('GET the page without them', b));
    console.log(`  with blocks, share of without: ${((a.requests.average / b.requests.average) * 100).toFixed(1)}% (target: at least 80%); the service rendered ${service.renders() - renders} blocks meanwhile`);
  } finally {
    await server?.stop();
    service.server.close();
    await dropDatabase(DB);
    await removeQueueKeys(DB);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
