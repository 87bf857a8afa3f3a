'use strict';
// Seeds a benchmark database: one organization, one admin with a known token, N spaces.
const { createHash, randomBytes } = require('node:crypto');
const { Client } = require('pg');

async function seed(url, { spaces = 10000 } = {}) {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const token = 'gbp_bench_' + randomBytes(16).toString('hex');
    const hash = createHash('sha256').update(token).digest('hex');
    await client.query('BEGIN');
    await client.query(`INSERT INTO users (id, email, display_name, email_verified, created_at) VALUES ('benchuser', 'bench@example.com', 'Bench', true, now())`);
    await client.query(`INSERT INTO api_tokens (id, user_id, token_hash, created_at) VALUES ('benchtoken', 'benchuser', $1, now())`, [hash]);
    await client.query(`INSERT INTO organizations (id, title, created_at) VALUES ('benchorg', 'Bench', now())`);
    await client.query(`INSERT INTO organization_members (organization_id, user_id, role, joined_at) VALUES ('benchorg', 'benchuser', 'admin', now())`);
    await client.query(
      `INSERT INTO spaces (id, organization_id, title, revision_id, position, created_at, updated_at)
       SELECT 'space' || lpad(i::text, 6, '0'), 'benchorg', 'Space ' || i, 'rev' || i, i,
              timestamp '2026-01-01' + (i || ' seconds')::interval, timestamp '2026-01-01' + (i || ' seconds')::interval
         FROM generate_series(1, $1::int) AS i`,
      [spaces],
    );
    await client.query('COMMIT');
    // Settled before anything is measured: no autovacuum of the fresh rows, no checkpoint of them, mid-run.
    await client.query('VACUUM ANALYZE');
    await client.query('CHECKPOINT');
    return { token, organizationId: 'benchorg', spaceId: 'space' + String(Math.ceil(spaces / 2)).padStart(6, '0') };
  } finally {
    await client.end();
  }
}

module.exports = { seed };
