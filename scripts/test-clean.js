#!/usr/bin/env node
// `npm run test:clean`: removes what interrupted test runs left on this machine's PostgreSQL and Redis: databases
// and keys named docs_test_<run>_*, of runs that are no longer alive (a live run holds an advisory lock on its
// server, see libs/testing/src/database.ts), and nothing else. TEST_DATABASE_URL and REDIS_URL name the servers.
const { Client } = require('pg');
const Redis = require('ioredis');

const postgresUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const NAME = /^docs_test_([a-z0-9]+)_[a-z0-9_]+$/;
/** For its own test: only these runs (comma-separated ids). */
const only = process.env.TEST_CLEAN_ONLY ? new Set(process.env.TEST_CLEAN_ONLY.split(',')) : null;

async function main() {
  const pg = new Client({ connectionString: postgresUrl });
  await pg.connect();
  const { rows } = await pg.query(`SELECT datname FROM pg_database WHERE datname LIKE 'docs\\_test\\_%'`);
  const runs = new Map();
  for (const { datname } of rows) {
    const match = NAME.exec(datname);
    if (match) runs.set(match[1], [...(runs.get(match[1]) ?? []), datname]);
  }
  let redis;
  try {
    redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null });
    redis.on('error', () => undefined);
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', 'docs_test_*', 'COUNT', 1000);
      for (const key of keys) {
        const match = /^docs_test_([a-z0-9]+)_/.exec(key);
        if (match && !runs.has(match[1])) runs.set(match[1], []);
      }
      cursor = next;
    } while (cursor !== '0');
  } catch {
    redis = undefined; // no Redis here: only databases to remove
  }
  let removed = 0;
  for (const [run, databases] of runs) {
    if (only && !only.has(run)) continue;
    const { rows: lock } = await pg.query(`SELECT pg_try_advisory_lock(hashtext('docs_test_run:' || $1)) AS free`, [run]);
    if (!lock[0].free) {
      console.log(`run ${run}: alive, left alone`);
      continue;
    }
    // Clones first: the template goes last.
    for (const name of databases.sort((a, b) => Number(a.endsWith('_template')) - Number(b.endsWith('_template')))) {
      await pg.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      removed++;
    }
    let keys = 0;
    if (redis) {
      let cursor = '0';
      do {
        const [next, found] = await redis.scan(cursor, 'MATCH', `docs_test_${run}_*`, 'COUNT', 1000);
        if (found.length) await redis.unlink(...found);
        keys += found.length;
        cursor = next;
      } while (cursor !== '0');
    }
    await pg.query(`SELECT pg_advisory_unlock(hashtext('docs_test_run:' || $1))`, [run]);
    console.log(`run ${run}: removed ${databases.length} databases and ${keys} Redis keys`);
  }
  if (runs.size === 0) console.log('nothing left by test runs');
  await pg.end();
  redis?.disconnect();
  return removed;
}

main().catch((error) => {
  console.error(`test:clean: ${error.message}`);
  process.exit(1);
});
