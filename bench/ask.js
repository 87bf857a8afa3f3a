'use strict';
// Ask and the site MCP server at BENCH_PAGES pages (default 10,000), in one run:
// - Ask without a model (askInOrganization): p50/p95 against the organization search alone (its baseline: the
//   retrieval Ask runs first). Target: p95 under 150 ms.
// - Ask with a model (a local fake answering after BENCH_MODEL_MS, default 300 ms), streamed: time to the first
//   event, and the whole answer minus the model's own time. Target: first event minus the model's time under 100 ms
//   (the first event, the passages, does not wait for the model at all).
// - The site MCP server's searchDocumentation tool over the published site: p50/p95. Target: p95 under 100 ms.
// Usage: npm run build && npm run bench:ask   (BENCH_PAGES, BENCH_REQUESTS, BENCH_MODEL_MS to tune)
const { createServer } = require('node:http');
const path = require('node:path');
const { uniqueName, dbUrl, admin, dropDatabase, startApi, removeQueueKeys, jsonCaller, percentile, writeResult } = require('./lib');
const { WORDS, seedSpace, seedContext } = require('./content-seed');

const ROOT = path.join(__dirname, '..');
const DB = uniqueName('ask');
const PAGES = Number(process.env.BENCH_PAGES || 10000);
const REQUESTS = Number(process.env.BENCH_REQUESTS || 200);
const MODEL_MS = Number(process.env.BENCH_MODEL_MS || 300);

function fakeModel() {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () =>
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ id: 'x', object: 'chat.completion', created: 0, model: 'fake', choices: [{ index: 0, message: { role: 'assistant', content: 'Use the settings [1].' }, finish_reason: 'stop' }], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } }));
      }, MODEL_MS),
    );
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${server.address().port}/v1` })));
}

const question = (i) => `How do I run ${WORDS[i % WORDS.length]} with ${WORDS[(i * 5 + 3) % WORDS.length]} settings for team ${(i * 37) % PAGES}?`;

async function sample(count, fn) {
  const times = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    await fn(i);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95) };
}

const fmt = (label, s) => `${label.padEnd(44)} p50 ${s.p50.toFixed(1).padStart(6)} ms   p95 ${s.p95.toFixed(1).padStart(6)} ms`;

async function main() {
  await admin(`CREATE DATABASE ${DB}`);
  process.env.DATABASE_URL = dbUrl(DB);
  process.env.QUEUE_PREFIX = DB;
  process.env.LOG_LEVEL = 'warn';
  process.env.PUBLIC_URL = 'http://localhost';
  const model = await fakeModel();
  let server;
  try {
    const { app, services, user, token, organization } = await seedContext(ROOT);
    const seeded = performance.now();
    const spaceId = await seedSpace(app, services, dbUrl(DB), { orgId: organization.id, userId: user.id, title: 'Handbook', count: PAGES });
    console.log(`seeded and indexed ${PAGES} pages in ${((performance.now() - seeded) / 1000).toFixed(1)} s`);
    await app.close();

    // Without a model.
    server = startApi({});
    let base = await server.url;
    let call = jsonCaller(`${base}/v1`, token);
    const org = organization.id;
    const site = await call('POST', `/orgs/${org}/sites`, { title: 'Bench docs', spaces: [spaceId] });
    await call('PATCH', `/orgs/${org}/sites/${site.id}`, { basename: 'bench' });
    await call('POST', `/orgs/${org}/sites/${site.id}/publish`);
    for (let i = 0; i < 20; i++) await call('POST', `/orgs/${org}/ask`, { query: question(i) });
    // What is measured must find something: the counts are printed with the figures.
    let searchHits = 0;
    let answered = 0;
    const search = await sample(REQUESTS, async (i) => {
      const found = await call('GET', `/orgs/${org}/search?query=${encodeURIComponent(question(i))}&limit=5`);
      if (found.items.length) searchHits++;
    });
    const ask = await sample(REQUESTS, async (i) => {
      const res = await call('POST', `/orgs/${org}/ask?format=markdown`, { query: question(i) });
      if (res.answer.sources.length) answered++;
    });

    const mcpUrl = `${base}/sites/bench/~gitbook/mcp`;
    const rpc = async (method, params, id = 1) => {
      const res = await fetch(mcpUrl, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id, method, params }) });
      const text = await res.text();
      if (res.status !== 200 || text.includes('"error"')) throw new Error(`MCP ${method}: ${res.status} ${text.slice(0, 300)}`);
      return text;
    };
    await rpc('initialize', { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'bench', version: '1' } });
    for (let i = 0; i < 20; i++) await rpc('tools/call', { name: 'searchDocumentation', arguments: { query: question(i) } }, i);
    let mcpHits = 0;
    const mcp = await sample(REQUESTS, async (i) => {
      const text = await rpc('tools/call', { name: 'searchDocumentation', arguments: { query: `${WORDS[i % WORDS.length]} team ${(i * 37) % PAGES}` } }, i);
      if (text.includes('Page ')) mcpHits++;
    });
    await server.stop();

    // With a model that takes MODEL_MS.
    server = startApi({ AI_API_URL: model.url, AI_MODEL: 'fake', AI_API_KEY: 'unused', OUTBOUND_ALLOW_PRIVATE: 'true' });
    base = await server.url;
    call = jsonCaller(`${base}/v1`, token);
    const firsts = [];
    const overheads = [];
    for (let i = 0; i < Math.min(REQUESTS, 60); i++) {
      const start = performance.now();
      const res = await fetch(`${base}/v1/orgs/${org}/ask/stream?format=markdown&query=${encodeURIComponent(question(i))}`, { headers: { authorization: `Bearer ${token}` } });
      const reader = res.body.getReader();
      let first = null;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (first === null && Buffer.from(value).toString('utf8').includes('data: ')) first = performance.now() - start;
      }
      const total = performance.now() - start;
      if (i >= 10) {
        firsts.push(first);
        overheads.push(total - MODEL_MS);
      }
    }
    firsts.sort((a, b) => a - b);
    overheads.sort((a, b) => a - b);

    console.log(`\nAsk and the site MCP server, ${PAGES} pages, ${REQUESTS} requests each, one at a time`);
    console.log(fmt('organization search (baseline)', search) + `   found something: ${searchHits}/${REQUESTS}`);
    console.log(fmt('askInOrganization, no model', ask) + `   with sources: ${answered}/${REQUESTS}`);
    console.log(`  Ask p95 / search p95: ${(ask.p95 / search.p95).toFixed(2)}x; target p95 < 150 ms: ${ask.p95 < 150 ? 'met' : 'NOT met'}`);
    console.log(fmt('site MCP searchDocumentation', mcp) + `   found pages: ${mcpHits}/${REQUESTS}`);
    console.log(`  target p95 < 100 ms: ${mcp.p95 < 100 ? 'met' : 'NOT met'}`);
    const f = { p50: percentile(firsts, 50), p95: percentile(firsts, 95) };
    const o = { p50: percentile(overheads, 50), p95: percentile(overheads, 95) };
    console.log(fmt(`streamAsk, model ${MODEL_MS} ms: first event`, f));
    console.log(fmt(`streamAsk: whole answer minus the model`, o));
    console.log(`  target (first token minus the model's time) < 100 ms: ${o.p95 < 100 ? 'met' : 'NOT met'} (the first event does not wait for the model: ${f.p95 < MODEL_MS ? 'yes' : 'no'})`);
    writeResult({ pages: PAGES, search, ask, mcp, firstEvent: f, overhead: o, searchHits, answered, mcpHits });
  } finally {
    await server?.stop();
    model.server.close();
    await removeQueueKeys(DB).catch(() => undefined);
    await dropDatabase(DB).catch(() => undefined);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
