'use strict';
// Foundation benchmark: GET /v1/spaces/{id} and a 100-item page of GET /v1/orgs/{id}/spaces over
// 10,000 spaces, against our API and against a bare node:http + pg server running the same SQL.
// Usage: npm run build && npm run bench   (BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_SPACES, BENCH_LOG_LEVEL to tune)
const { fork, spawn } = require('node:child_process');
const path = require('node:path');
const autocannon = require('autocannon');
const { Client } = require('pg');
const { seed } = require('./seed');

const SERVER = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const DB = 'docs_bench';
const SECONDS = Number(process.env.BENCH_SECONDS || 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 20);
const SPACES = Number(process.env.BENCH_SPACES || 10000);

function dbUrl(name) {
  const url = new URL(SERVER);
  url.pathname = '/' + name;
  return url.toString();
}

async function admin(sql) {
  const client = new Client({ connectionString: SERVER });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

async function waitFor(url, headers) {
  for (let i = 0; i < 200; i++) {
    try {
      const res = await fetch(url, { headers });
      if (res.status < 500) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('server did not start: ' + url);
}

function run(url, token) {
  return new Promise((resolve, reject) => {
    autocannon(
      { url, connections: CONNECTIONS, duration: SECONDS, headers: { authorization: 'Bearer ' + token } },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
  });
}

function line(label, r) {
  return `${label.padEnd(34)} ${r.requests.average.toFixed(0).padStart(7)} req/s   p50 ${String(r.latency.p50).padStart(4)} ms   p99 ${String(r.latency.p99).padStart(4)} ms   non-2xx ${r.non2xx}`;
}

async function main() {
  await admin(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${DB}`);
  const env = { ...process.env, DATABASE_URL: dbUrl(DB), LOG_LEVEL: process.env.BENCH_LOG_LEVEL || 'warn', PUBLIC_URL: 'http://localhost' };
  const migrate = spawn('node', ['node_modules/.bin/typeorm', '-d', 'dist/src/database/data-source.js', 'migration:run'], { env, stdio: 'ignore', cwd: path.join(__dirname, '..') });
  await new Promise((resolve, reject) => migrate.on('exit', (code) => (code === 0 ? resolve() : reject(new Error('migrations failed')))));
  const { token, organizationId, spaceId } = await seed(dbUrl(DB), { spaces: SPACES });

  const ours = spawn('node', [path.join(__dirname, '..', 'dist/src/main.js')], { env: { ...env, PORT: '3101', MIGRATIONS_RUN: 'false' }, stdio: 'ignore' });
  const bare = fork(path.join(__dirname, 'bare-server.js'), { env: { ...env, PORT: '3102' }, stdio: 'ignore' });
  const headers = { authorization: 'Bearer ' + token };
  try {
    await waitFor('http://127.0.0.1:3101/health');
    await waitFor('http://127.0.0.1:3102/v1/spaces/' + spaceId, headers);
    const routes = [
      ['GET /v1/spaces/{id}', `/v1/spaces/${spaceId}`],
      ['GET /v1/orgs/{id}/spaces?limit=100', `/v1/orgs/${organizationId}/spaces?limit=100`],
    ];
    console.log(`${SPACES} spaces, ${CONNECTIONS} connections, ${SECONDS}s per run, node ${process.version}`);
    for (const [label, route] of routes) {
      const check = await fetch('http://127.0.0.1:3101' + route, { headers });
      if (check.status !== 200) throw new Error(`${label} answered ${check.status}: ${await check.text()}`);
      await run('http://127.0.0.1:3101' + route, token); // warm-up is discarded
      const our = await run('http://127.0.0.1:3101' + route, token);
      const base = await run('http://127.0.0.1:3102' + route, token);
      console.log(line(`ours ${label}`, our));
      console.log(line(`bare ${label}`, base));
      console.log(`  our share of the bare server's throughput: ${((our.requests.average / base.requests.average) * 100).toFixed(1)}%`);
    }
  } finally {
    ours.kill('SIGTERM');
    bare.kill('SIGTERM');
  }
  await admin(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
