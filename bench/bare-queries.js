'use strict';
// The SQL our API runs for GET /v1/spaces/{id} and GET /v1/orgs/{id}/spaces (token lookup, access
// context, the space query) and the space presenter, with no framework: shared by the baseline
// servers of bench/run.js (bare-server.js on node:http, nest-baseline-server.js on NestJS).
const { createHash } = require('node:crypto');
const { Pool } = require('pg');

const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DB_POOL_SIZE || 10) });
const base = process.env.PUBLIC_URL || 'http://localhost';

// Our API sends its hot reads (token, space, access context) as named prepared statements; so do
// the baselines, so both ask PostgreSQL for the same work. BARE_UNNAMED=1 sends them unnamed (parsed
// and planned on every request), as the baseline did before 2026-11-27.
const PREPARE = process.env.BARE_UNNAMED !== '1';
let statements = 0;
const names = new Map();
function prepared(text, values) {
  if (!PREPARE) return pool.query(text, values);
  if (!names.has(text)) names.set(text, `bare_${++statements}`);
  return pool.query({ name: names.get(text), text, values });
}

// The access context's columns are our API's own text (built: `npm run build` first), so the
// baselines cannot drift from what the API asks.
const { accessContextColumns } = require('../dist/src/modules/access/infrastructure/access-context.sql');
const ACCESS_SQL = `SELECT ${accessContextColumns('$1', '$2')}`;
// GET /v1/spaces/{id} reads the space and the caller's access in its organization in one statement.
const SPACE_SQL = `SELECT *, ${accessContextColumns('spaces.organization_id', '$2')} FROM spaces WHERE id = $1 AND deleted_at IS NULL`;

function present(s) {
  return {
    object: 'space', id: s.id, title: s.title, emoji: s.emoji, visibility: s.visibility,
    createdAt: s.created_at.toISOString(), updatedAt: s.updated_at.toISOString(), editMode: s.edit_mode,
    mergeRules: s.merge_rules, organization: s.organization_id, revision: s.revision_id, defaultLevel: s.default_level,
    comments: s.comments, changeRequests: s.change_requests, changeRequestsOpen: s.change_requests_open,
    changeRequestsDraft: s.change_requests_draft,
    urls: { location: `${base}/v1/spaces/${s.id}`, app: `${base}/app/s/${s.id}` },
    permissions: { view: true, access: true, admin: true, viewInviteLinks: true, edit: true, triggerGitSync: true, comment: true, merge: true, review: true, installIntegration: true },
  };
}

// Our API remembers the tokens it authenticated (TOKEN_CACHE_SECONDS, forgotten on LISTEN
// auth_changed), so a warm request reads no token; the baselines remember callers the same way
// (without the invalidation, which costs nothing per request). BARE_TOKEN_CACHE=0 reads every time,
// for comparing with an API run with TOKEN_CACHE_SECONDS=0.
const CACHE_CALLERS = process.env.BARE_TOKEN_CACHE !== '0';
const callers = new Map();

/** The caller named by an `Authorization: Bearer` header, or null. */
async function caller(authorization) {
  const match = /^Bearer (\S+)$/.exec(authorization || '');
  if (!match) return null;
  const hash = createHash('sha256').update(match[1]).digest('hex');
  const known = CACHE_CALLERS && callers.get(hash);
  if (known) return known;
  const { rows } = await prepared('SELECT u.* FROM users u JOIN api_tokens t ON t.user_id = u.id WHERE t.token_hash = $1', [hash]);
  if (rows[0] && CACHE_CALLERS) callers.set(hash, rows[0]);
  return rows[0] || null;
}

/** GET /v1/spaces/{id} for a known caller: the presented space, or null when there is none. */
async function space(user, id) {
  const { rows } = await prepared(SPACE_SQL, [id, user.id]);
  return rows[0] ? present(rows[0]) : null;
}

/** GET /v1/orgs/{id}/spaces for a known caller: the first page of the list envelope. */
async function spaces(user, organizationId, limit) {
  await prepared(ACCESS_SQL, [organizationId, user.id]);
  const count = await pool.query('SELECT count(*) FROM spaces WHERE organization_id = $1 AND deleted_at IS NULL', [organizationId]);
  const { rows } = await pool.query(
    'SELECT * FROM spaces WHERE organization_id = $1 AND deleted_at IS NULL ORDER BY created_at, id LIMIT $2',
    [organizationId, limit + 1],
  );
  const items = rows.slice(0, limit).map(present);
  return { items, count: Number(count.rows[0].count), next: rows.length > limit ? { page: 'x' } : undefined };
}

module.exports = { caller, space, spaces };
