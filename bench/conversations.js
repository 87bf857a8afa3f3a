'use strict';
// Conversation insights benchmark: BENCH_CONVERSATIONS conversations (default 10,000) ingested through the API in
// batches of 100, then analysed by a worker with the built-in method (no model): ingestion rate, and the time from the
// last ingestion to every conversation analysed, with the clusters found. Usage: npm run build && npm run bench:conversations
const { spawn } = require('node:child_process');
const path = require('node:path');
const { Client } = require('pg');
const { ROOT, REDIS_URL, uniqueName, createMigratedDatabase, dropDatabase, startApi, removeQueueKeys } = require('./lib');
const { seed } = require('./seed');

const COUNT = Number(process.env.BENCH_CONVERSATIONS || 10000);
const TOPICS = [
  'How do I reset my password? The reset email never arrives.',
  'Where is the API rate limit documented? I keep getting 429 errors.',
  'How do I set up SSO with Okta for my team?',
  'The PDF export fails with an error on large spaces.',
  'How can I invite guests without giving them edit access?',
  'Search does not find pages I just published, why?',
  'How do I connect my GitHub repository with Git Sync?',
  'Custom domain setup is unclear, the DNS step fails.',
  'How do I translate my docs into French?',
  'Webhooks are not documented, how do I verify the signature?',
];

function conversation(i) {
  const topic = TOPICS[i % TOPICS.length];
  return { id: `conv-${i}`, subject: `Ticket ${i}`, parts: [{ type: 'message', role: 'user', body: `Hello. ${topic} Ticket ${i} from account ${i % 97}.` }, { type: 'message', role: 'team-member', body: 'Thanks, we will check.' }] };
}

async function main() {
  const name = uniqueName('convbench');
  const env = { QUEUE_PREFIX: name, PUBLIC_URL: 'http://localhost', LOG_LEVEL: 'warn' };
  let api;
  let worker;
  let db;
  try {
    const databaseUrl = await createMigratedDatabase(name);
    Object.assign(env, { DATABASE_URL: databaseUrl });
    const { token, organizationId } = await seed(databaseUrl, { spaces: 0 });
    api = startApi(env);
    worker = spawn('node', [path.join(ROOT, 'dist/src/worker.js')], { env: { ...process.env, REDIS_URL, ...env, MIGRATIONS_RUN: 'false' }, stdio: ['ignore', 'ignore', 'inherit'] });
    const base = await api.url;
    db = new Client({ connectionString: databaseUrl });
    await db.connect();
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

    const start = performance.now();
    for (let i = 0; i < COUNT; i += 100) {
      const batch = Array.from({ length: Math.min(100, COUNT - i) }, (_, j) => conversation(i + j));
      const res = await fetch(`${base}/v1/orgs/${organizationId}/conversations`, { method: 'POST', headers, body: JSON.stringify(batch) });
      if (res.status !== 204) throw new Error(`ingest answered ${res.status}: ${await res.text()}`);
    }
    const ingested = performance.now();
    for (;;) {
      const { rows } = await db.query('SELECT count(*)::int AS n FROM conversations WHERE processed_at IS NULL');
      if (rows[0].n === 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const analysed = performance.now();
    const { rows: clusters } = await db.query('SELECT label, issues FROM issues_clusters ORDER BY issues DESC');
    const { rows: issues } = await db.query('SELECT count(*)::int AS n FROM conversation_issues');
    console.table([
      { step: `ingest ${COUNT} conversations (batches of 100)`, ms: Math.round(ingested - start), 'per second': Math.round((COUNT / (ingested - start)) * 1000) },
      { step: 'analysis after the last batch (built-in method)', ms: Math.round(analysed - ingested), 'per second': '-' },
      { step: 'ingest + analysis', ms: Math.round(analysed - start), 'per second': Math.round((COUNT / (analysed - start)) * 1000) },
    ]);
    console.log(`${issues[0].n} issues in ${clusters.length} clusters; largest: ${clusters.slice(0, 10).map((c) => `${c.label} (${c.issues})`).join(', ')}`);
  } finally {
    if (db) await db.end();
    if (worker && worker.exitCode === null) {
      worker.kill('SIGTERM');
      await new Promise((resolve) => worker.on('exit', resolve));
    }
    if (api) await api.stop();
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
