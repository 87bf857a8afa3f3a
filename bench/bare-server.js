'use strict';
// The baseline: node:http + pg doing the same SQL as our API for the two benchmarked routes
// (token lookup, authorization context, the space query), with no framework around it.
const http = require('node:http');
const { caller, space, spaces } = require('./bare-queries');

const notFound = { error: { code: 404, message: 'Not found' } };

async function handle(req, res) {
  const user = await caller(req.headers.authorization);
  if (!user) return send(res, 401, { error: { code: 401, message: 'Unauthorized' } });
  const url = new URL(req.url, 'http://x');
  let m;
  if ((m = /^\/v1\/spaces\/([^/]+)$/.exec(url.pathname))) {
    const body = await space(user, m[1]);
    return send(res, body ? 200 : 404, body || notFound);
  }
  if ((m = /^\/v1\/orgs\/([^/]+)\/spaces$/.exec(url.pathname))) {
    return send(res, 200, await spaces(user, m[1], Number(url.searchParams.get('limit') || 50)));
  }
  send(res, 404, notFound);
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
// A clean exit on SIGTERM, so --cpu-prof (BENCH_PROFILE_DIR) writes its profile.
process.on('SIGTERM', () => process.exit(0));
