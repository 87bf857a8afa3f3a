'use strict';
// The fault run: two API processes and a worker (from dist) on a PostgreSQL cluster and a Redis of
// their own (made here with initdb/pg_ctl and redis-server on free ports, so nothing else on the machine
// is touched), 20 writes/s through both APIs, while PostgreSQL is restarted, then stopped for 30 s,
// Redis is stopped for 10 s, and the worker is SIGKILLed. Every 10th write also gives an OpenAPI spec
// a new source (a job on the worker). It checks, and exits 1 otherwise: no answer is a 500, every write
// answered 2xx is there afterwards, every acknowledged spec is processed (none left in progress), and
// both APIs answer within 5 s of each dependency's return, and no spec was processed twice. It prints the figures.
// Usage: npm run build && npm run faults   (FAULT_PG_STOP_S, FAULT_RATE; FAULT_FROM_SOURCE=1 runs src/ through ts-node;
// FAULT_LOG_DIR=dir keeps each process's log there when a spec is left unprocessed). CI runs it after the tests.
const { execFileSync, spawn } = require('node:child_process');
const { chownSync, mkdtempSync, rmSync, chmodSync } = require('node:fs');
const { tmpdir } = require('node:os');
const path = require('node:path');
const { Client } = require('pg');
const { freePort } = require('./lib');
const { seed } = require('./seed');

const ROOT = path.join(__dirname, '..');
const PG_BIN = process.env.PG_BIN || `/usr/lib/postgresql/${require('node:fs').readdirSync('/usr/lib/postgresql')[0]}/bin`;
const PG_STOP_S = Number(process.env.FAULT_PG_STOP_S || 30);
const RATE = Number(process.env.FAULT_RATE || 20);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const asPostgres = (cmd, args) => (process.getuid() === 0 ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args]);

function run(cmd, args) {
  const [c, a] = asPostgres(cmd, args);
  execFileSync(c, a, { stdio: 'ignore' });
}

async function main() {
  const dir = mkdtempSync(path.join(tmpdir(), 'docs-faults-'));
  chmodSync(dir, 0o777);
  const pgData = path.join(dir, 'pg');
  const pgPort = await freePort();
  const redisPort = await freePort();
  if (process.getuid() === 0) chownSync(dir, Number(execFileSync('id', ['-u', 'postgres']).toString()), Number(execFileSync('id', ['-g', 'postgres']).toString()));
  run(path.join(PG_BIN, 'initdb'), ['-D', pgData, '-U', 'postgres', '--auth=trust', '-E', 'UTF8']);
  const pgCtl = (...args) => run(path.join(PG_BIN, 'pg_ctl'), ['-D', pgData, '-o', `-p ${pgPort} -k ${dir} -c listen_addresses=127.0.0.1`, '-w', ...args]);
  pgCtl('start', '-l', path.join(dir, 'pg.log'));
  let redis;
  const startRedis = () => {
    redis = spawn('redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--appendonly', 'yes', '--appendfsync', 'always', '--save', '', '--dir', dir], { stdio: 'ignore' });
  };
  startRedis();
  const databaseUrl = `postgres://postgres@127.0.0.1:${pgPort}/docs_faults`;
  const env = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    REDIS_URL: `redis://127.0.0.1:${redisPort}`,
    JOBS_BACKEND: 'redis',
    LOG_LEVEL: 'error',
    RATE_LIMITS: 'off',
    PUBLIC_URL: 'http://localhost',
    FILES_DIR: path.join(dir, 'files'),
    // The worker tries PostgreSQL for as long as the outage lasts when it starts during one.
    DB_CONNECT_ATTEMPTS: '120',
  };
  const children = [];
  const fromSource = process.env.FAULT_FROM_SOURCE === '1';
  const start = (entry, extra = {}) => {
    const args = fromSource
      ? ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register', path.join(ROOT, 'src', entry.replace(/\.js$/, '.ts'))]
      : [path.join(ROOT, 'dist/src', entry)];
    const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...env, TS_NODE_PROJECT: path.join(ROOT, 'tsconfig.json'), ...extra }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.output = '';
    child.stdout.on('data', (c) => (child.output += c));
    child.stderr.on('data', (c) => (child.output += c));
    children.push(child);
    return child;
  };
  const report = {};
  let failed = false;
  const check = (ok, what) => {
    console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
    if (!ok) failed = true;
  };
  try {
    const ports = [await freePort(), await freePort()];
    start('main.js', { PORT: String(ports[0]) });
    const bases = ports.map((p) => `http://127.0.0.1:${p}`);
    const answers = async (base) => fetch(`${base}/health`).then((r) => r.status === 200, () => false);
    // From source, ts-node compiles first: up to three minutes on a busy two-core machine.
    for (let i = 0; i < 1800 && !(await answers(bases[0])); i++) await sleep(100);
    if (!(await answers(bases[0]))) throw new Error(`the first API did not start: ${children[0].output.slice(-2000)}`);
    const { token, organizationId } = await seed(databaseUrl, { spaces: 1 });
    start('main.js', { PORT: String(ports[1]), MIGRATIONS_RUN: 'false' });
    // At info, so that its 'Worker started' line tells when it takes jobs.
    let worker = start('worker.js', { MIGRATIONS_RUN: 'false', LOG_LEVEL: 'info' });
    for (let i = 0; i < 1800 && !(await answers(bases[1])); i++) await sleep(100);
    if (!(await answers(bases[1]))) throw new Error(`the second API did not start: ${children[1].output.slice(-2000)}`);
    for (let i = 0; i < 1800 && !worker.output.includes('Worker started'); i++) await sleep(100);
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

    // The writer: RATE writes a second, alternating APIs; each answer recorded.
    const writes = [];
    const specs = [];
    let writing = true;
    const writer = (async () => {
      for (let i = 0; writing; i++) {
        const base = bases[i % 2];
        const at = Date.now();
        const request = i % 10 === 9
          ? fetch(`${base}/v1/orgs/${organizationId}/openapi/spec-${i}`, { method: 'PUT', headers, body: JSON.stringify({ source: { text: JSON.stringify({ openapi: '3.0.3', info: { title: `Spec ${i}`, version: '1' }, paths: {} }) } }) })
          : fetch(`${base}/v1/orgs/${organizationId}/spaces`, { method: 'POST', headers, body: JSON.stringify({ title: `Write ${i}` }) });
        request
          .then(async (res) => {
            const body = await res.json().catch(() => ({}));
            writes.push({ i, status: res.status, id: body.id, spec: i % 10 === 9 ? `spec-${i}` : undefined, ms: Date.now() - at });
            if (i % 10 === 9 && res.status < 300) specs.push(`spec-${i}`);
          })
          .catch((error) => writes.push({ i, status: 0, error: error.message }));
        await sleep(1000 / RATE);
      }
    })();
    /** Seconds from `since` until both APIs answer an authenticated read. */
    const recovery = async (since) => {
      for (;;) {
        const ok = await Promise.all(bases.map((base) => fetch(`${base}/v1/user`, { headers }).then((r) => r.status === 200, () => false)));
        if (ok.every(Boolean)) return (Date.now() - since) / 1000;
        if (Date.now() - since > 60_000) return Infinity;
        await sleep(50);
      }
    };

    await sleep(5000);
    pgCtl('restart', '-m', 'fast', '-l', path.join(dir, 'pg.log'));
    report['PostgreSQL restarted: APIs answer again after (s)'] = await recovery(Date.now());
    await sleep(5000);
    pgCtl('stop', '-m', 'fast');
    await sleep(PG_STOP_S * 1000);
    pgCtl('start', '-l', path.join(dir, 'pg.log'));
    report[`PostgreSQL back after ${PG_STOP_S} s down: APIs answer again after (s)`] = await recovery(Date.now());
    await sleep(5000);
    redis.kill('SIGTERM');
    await new Promise((resolve) => redis.once('exit', resolve));
    await sleep(10_000);
    startRedis();
    report['Redis back after 10 s down: APIs answer again after (s)'] = await recovery(Date.now());
    await sleep(3000);
    worker.kill('SIGKILL');
    worker = start('worker.js', { MIGRATIONS_RUN: 'false', LOG_LEVEL: 'info' });
    await sleep(10_000);
    writing = false;
    await writer;
    await sleep(2000); // the last answers

    // Afterwards: every acknowledged write is there, every acknowledged spec processed.
    const client = new Client({ connectionString: databaseUrl });
    await client.connect();
    const acknowledged = writes.filter((w) => w.status >= 200 && w.status < 300);
    const spaceIds = acknowledged.filter((w) => !w.spec).map((w) => w.id);
    const found = (await client.query('SELECT id FROM spaces WHERE id = ANY($1)', [spaceIds])).rows.length;
    const specsFound = (await client.query('SELECT slug FROM openapi_specs WHERE slug = ANY($1)', [specs])).rows.length;
    let pending = specs;
    const settleStart = Date.now();
    while (pending.length && Date.now() - settleStart < 120_000) {
      const rows = (await client.query(`SELECT slug, processing_state FROM openapi_specs WHERE slug = ANY($1)`, [pending])).rows;
      pending = pending.filter((slug) => rows.find((r) => r.slug === slug)?.processing_state !== 'complete');
      if (pending.length) await sleep(1000);
    }
    // Exactly once: a processing that finished announces it once; a second run of the job skips.
    const announced = (await client.query(`SELECT data->>'slug' AS slug, count(*)::int AS n FROM domain_events WHERE type = 'openapi_spec.processed' AND data->>'slug' = ANY($1) GROUP BY 1`, [specs])).rows;
    const twice = announced.filter((row) => row.n > 1).map((row) => row.slug);
    const stuck = pending.length ? (await client.query(`SELECT slug, processing_state, updated_at FROM openapi_specs WHERE slug = ANY($1)`, [pending])).rows : [];
    if (stuck.length) {
      console.log('not processed:', JSON.stringify(stuck));
      const ids = (await client.query(`SELECT id, generation FROM openapi_specs WHERE slug = ANY($1)`, [pending])).rows;
      console.log('staged, not queued:', (await client.query('SELECT job_id, created_at FROM job_outbox')).rows.length);
      const fields = ['attemptsMade', 'stalledCounter', 'failedReason', 'finishedOn', 'processedOn', 'delay'];
      for (const { id, generation } of ids) {
        const values = execFileSync('redis-cli', ['-p', String(redisPort), 'HMGET', `docs:{openapi}:${id}-${generation}`, ...fields]).toString().split('\n');
        console.log(`job ${id}-${generation}:`, fields.map((f, n) => `${f}=${values[n] || '-'}`).join(' '));
      }
      if (process.env.FAULT_LOG_DIR) children.forEach((c, n) => require('node:fs').writeFileSync(path.join(process.env.FAULT_LOG_DIR, `child-${n}.log`), c.output));
      const lines = children.filter((c) => c.spawnargs.some((a) => a.includes('worker'))).flatMap((c) => c.output.split('\n'));
      console.log(lines.filter((line) => /openapi|outbox|failed|retrying|stalled/i.test(line)).slice(-60).join('\n'));
    }
    await client.end();
    const byStatus = writes.reduce((acc, w) => ((acc[w.status] = (acc[w.status] || 0) + 1), acc), {});
    console.table([{ 'writes sent': writes.length, acknowledged: acknowledged.length, 'acknowledged found': found + specsFound, ...Object.fromEntries(Object.entries(byStatus).map(([s, n]) => [`answered ${s}`, n])) }]);
    console.table(Object.entries(report).map(([what, seconds]) => ({ what, seconds: Number(seconds).toFixed(2) })));
    check(!writes.some((w) => w.status === 500), `no write answered 500 (${byStatus[500] || 0})`);
    check(found === spaceIds.length && specsFound === specs.length, `every acknowledged write is there (${found} of ${spaceIds.length} spaces, ${specsFound} of ${specs.length} specs)`);
    check(twice.length === 0, `no spec processed twice (${twice.length ? twice.join(', ') : 'none'})`);
    check(pending.length === 0, `every acknowledged spec processed (${specs.length - pending.length} of ${specs.length}; still not: ${pending.join(', ')})`);
    for (const [what, seconds] of Object.entries(report)) check(seconds <= 5, `${what}: ${Number(seconds).toFixed(2)} s, within 5 s`);
    check(children.slice(0, 2).every((c) => c.exitCode === null), 'both APIs still running');
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    redis.kill('SIGKILL');
    try {
      pgCtl('stop', '-m', 'immediate');
    } catch {
      // already stopped
    }
    rmSync(dir, { recursive: true, force: true });
  }
  process.exit(failed ? 1 : 0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
