'use strict';
// Translation benchmark: a run of a BENCH_PAGES-page space (default 1,000) through the API and a worker against a
// local fake OpenAI-compatible provider (answers at once: this measures our side), then a second run after one page
// changed, which must send exactly one page. Usage: npm run build && npm run bench:translations
const { spawn } = require('node:child_process');
const { createServer } = require('node:http');
const path = require('node:path');
const { ROOT, REDIS_URL, uniqueName, createMigratedDatabase, dropDatabase, startApi, removeQueueKeys } = require('./lib');
const { seed } = require('./seed');

const PAGES = Number(process.env.BENCH_PAGES || 1000);

function fakeProvider() {
  let calls = 0;
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      calls++;
      const body = JSON.parse(raw);
      const page = JSON.parse(body.messages[1].content);
      const tr = (text) => text.replace(/(?<![⟦\w])[A-Za-z]{2,}(?![\w⟧])/g, (w) => `${w}-de`);
      const content = JSON.stringify({ title: tr(page.title), description: tr(page.description || ''), body: tr(page.body) });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: 'x', object: 'chat.completion', created: 0, model: body.model, choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] }));
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${server.address().port}/v1`, calls: () => calls })));
}

function pageBody(i) {
  return `This page explains feature ${i} and how to configure it.\n\nRun \`tool enable feature-${i}\` and read [the guide](https://example.com/guide/${i}).\n\n\`\`\`bash\ntool status --feature ${i}\n\`\`\`\n\nIt works with every plan, and it can be turned off at any time from the settings.\n`;
}

async function main() {
  const name = uniqueName('translate');
  const provider = await fakeProvider();
  const env = { QUEUE_PREFIX: name, PUBLIC_URL: 'http://localhost', LOG_LEVEL: 'warn', OUTBOUND_ALLOW_PRIVATE: 'true', AI_API_URL: provider.url, AI_MODEL: 'fake', AI_MAX_CONCURRENCY: '8' };
  let api;
  let worker;
  try {
    const databaseUrl = await createMigratedDatabase(name);
    Object.assign(env, { DATABASE_URL: databaseUrl });
    const { token, organizationId } = await seed(databaseUrl, { spaces: 0 });
    api = startApi(env);
    worker = spawn('node', [path.join(ROOT, 'dist/src/worker.js')], { env: { ...process.env, REDIS_URL, ...env, MIGRATIONS_RUN: 'false' }, stdio: ['ignore', 'ignore', 'inherit'] });
    const base = await api.url;
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const call = async (method, url, body) => {
      const res = await fetch(`${base}/v1${url}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await res.text();
      if (res.status >= 400) throw new Error(`${method} ${url}: ${res.status} ${text}`);
      return text ? JSON.parse(text) : undefined;
    };

    const spaceId = (await call('POST', `/orgs/${organizationId}/spaces`, { title: 'Product docs', empty: true })).id;
    const writeCr = await call('POST', `/spaces/${spaceId}/change-requests`, { subject: 'pages' });
    for (let i = 0; i < PAGES; i += 50) {
      const changes = [];
      for (let j = i; j < Math.min(PAGES, i + 50); j++) changes.push({ operation: 'insert_page', title: `Feature ${j}`, document: { markdown: pageBody(j) } });
      await call('POST', `/spaces/${spaceId}/change-requests/${writeCr.id}/content`, { changes });
    }
    await call('POST', `/spaces/${spaceId}/change-requests/${writeCr.id}/merge`);
    const translation = await call('POST', `/orgs/${organizationId}/translations`, { language: 'de', source: { space: spaceId, language: 'en' } });

    const run = async () => {
      const calls = provider.calls();
      const start = performance.now();
      await call('POST', `/orgs/${organizationId}/translations/${translation.id}/run`);
      for (;;) {
        const t = await call('GET', `/orgs/${organizationId}/translations/${translation.id}`);
        if (t.status === 'completed') return { ms: performance.now() - start, sent: provider.calls() - calls, t };
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    const first = await run();
    if (first.t.lastError) throw new Error(first.t.lastError);

    const edit = await call('POST', `/spaces/${spaceId}/change-requests`, { subject: 'one page' });
    const pages = await call('GET', `/spaces/${spaceId}/content/pages`);
    await call('POST', `/spaces/${spaceId}/change-requests/${edit.id}/content`, { changes: [{ operation: 'update_page', page: pages.pages[7].id, document: { markdown: 'A new text for this page.\n' } }] });
    await call('POST', `/spaces/${spaceId}/change-requests/${edit.id}/merge`);
    const second = await run();

    console.table([
      { run: `first (${PAGES} pages)`, ms: Math.round(first.ms), 'pages sent': first.sent, 'pages/s': Math.round((first.sent / first.ms) * 1000), words: first.t.stats.latestWords },
      { run: 'second, one page changed', ms: Math.round(second.ms), 'pages sent': second.sent, 'pages/s': '-', words: second.t.stats.latestWords },
    ]);
  } finally {
    if (worker && worker.exitCode === null) {
      worker.kill('SIGTERM');
      await new Promise((resolve) => worker.on('exit', resolve));
    }
    if (api) await api.stop();
    provider.server.close();
    await dropDatabase(name).catch(() => undefined);
    await removeQueueKeys(name).catch(() => undefined);
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
