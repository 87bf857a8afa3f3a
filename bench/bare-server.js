'use strict';
// The baseline: node:http + pg doing the same SQL as our API for the two benchmarked routes
// (token lookup, authorization context, the space query), with no framework around it.
const http = require('node:http');
const { createHash } = require('node:crypto');
const { Pool } = require('pg');

const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DB_POOL_SIZE || 10) });
const base = process.env.PUBLIC_URL || 'http://localhost';

// Our API sends its hot reads (token, space, access context) as named prepared statements; so does
// this baseline, so both ask PostgreSQL for the same work. BARE_UNNAMED=1 sends them unnamed (parsed
// and planned on every request), as this baseline did before 2026-11-27.
const PREPARE = process.env.BARE_UNNAMED !== '1';
let statements = 0;
const names = new Map();
function prepared(text, values) {
  if (!PREPARE) return pool.query(text, values);
  if (!names.has(text)) names.set(text, `bare_${++statements}`);
  return pool.query({ name: names.get(text), text, values });
}

const ACCESS_SQL = `SELECT
  (SELECT json_build_object('role', m.role) FROM organization_members m WHERE m.organization_id = $1 AND m.user_id = $2 AND NOT m.disabled) AS member,
  (SELECT coalesce(json_agg(json_build_array(c.id, c.parent_id, c.default_level)), '[]'::json) FROM collections c WHERE c.organization_id = $1) AS collections,
  (SELECT coalesce(json_agg(json_build_array(g.space_id, g.collection_id, g.role)), '[]'::json) FROM content_grants g
    WHERE g.organization_id = $1 AND (g.user_id = $2 OR g.team_id IN (
      SELECT tm.team_id FROM team_members tm JOIN teams t ON t.id = tm.team_id WHERE tm.user_id = $2 AND t.organization_id = $1))) AS grants`;

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

async function user(req) {
  const match = /^Bearer (\S+)$/.exec(req.headers.authorization || '');
  if (!match) return null;
  const hash = createHash('sha256').update(match[1]).digest('hex');
  const { rows } = await prepared('SELECT u.* FROM users u JOIN api_tokens t ON t.user_id = u.id WHERE t.token_hash = $1', [hash]);
  return rows[0] || null;
}

async function handle(req, res) {
  const caller = await user(req);
  if (!caller) return send(res, 401, { error: { code: 401, message: 'Unauthorized' } });
  const url = new URL(req.url, 'http://x');
  let m;
  if ((m = /^\/v1\/spaces\/([^/]+)$/.exec(url.pathname))) {
    const { rows } = await prepared('SELECT * FROM spaces WHERE id = $1 AND deleted_at IS NULL', [m[1]]);
    if (!rows[0]) return send(res, 404, { error: { code: 404, message: 'Not found' } });
    await prepared(ACCESS_SQL, [rows[0].organization_id, caller.id]);
    return send(res, 200, present(rows[0]));
  }
  if ((m = /^\/v1\/orgs\/([^/]+)\/spaces$/.exec(url.pathname))) {
    const limit = Number(url.searchParams.get('limit') || 50);
    await prepared(ACCESS_SQL, [m[1], caller.id]);
    const count = await pool.query('SELECT count(*) FROM spaces WHERE organization_id = $1 AND deleted_at IS NULL', [m[1]]);
    const { rows } = await pool.query(
      'SELECT * FROM spaces WHERE organization_id = $1 AND deleted_at IS NULL ORDER BY created_at, id LIMIT $2',
      [m[1], limit + 1],
    );
    const items = rows.slice(0, limit).map(present);
    return send(res, 200, { items, count: Number(count.rows[0].count), next: rows.length > limit ? { page: 'x' } : undefined });
  }
  send(res, 404, { error: { code: 404, message: 'Not found' } });
}

function send(res, status, body) {
  const json = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(json) });
  res.end(json);
}

http
  .createServer((req, res) => handle(req, res).catch((e) => send(res, 500, { error: { code: 500, message: e.message } })))
  .listen(Number(process.env.PORT || 0), '127.0.0.1', function () {
    if (process.send) process.send({ port: this.address().port });
  });
