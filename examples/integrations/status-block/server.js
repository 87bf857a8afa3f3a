'use strict';
/**
 * The "Service status" example integration: a plain Node HTTP server with no dependencies.
 *
 *   POST /render  a block render (ContentKit), signed by the docs server
 *   POST /events  an event (installation_setup, space_content_updated, task, ...), signed
 *
 * Run it:  SIGNING_SECRET=... API_URL=http://localhost:3000 PORT=8787 node server.js
 */
const http = require('node:http');
const crypto = require('node:crypto');

const SIGNATURE_HEADER = 'x-integration-signature';
const TOKEN_HEADER = 'x-integration-installation-token';

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, at most five minutes old. */
function verifySignature(secret, header, body, nowSeconds = Math.floor(Date.now() / 1000)) {
  const parts = Object.fromEntries(String(header || '').split(',').map((part) => part.split('=', 2)));
  const timestamp = Number(parts.t);
  if (!Number.isInteger(timestamp) || !parts.v1 || Math.abs(nowSeconds - timestamp) > 300) return false;
  const expected = crypto.createHmac('sha256', secret).update(`${timestamp}.${body}`).digest();
  const given = Buffer.from(parts.v1, 'hex');
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}

/** The block: the service's status (from the state once the button was pressed) and a button that flips it. */
function renderStatus(request) {
  const service = typeof request.props.service === 'string' ? request.props.service : 'service';
  let status = request.state && typeof request.state.status === 'string' ? request.state.status : 'operational';
  if (request.action && request.action.action === 'toggle') status = status === 'operational' ? 'degraded' : 'operational';
  return {
    type: 'element',
    state: { status },
    props: request.props,
    element: {
      type: 'block',
      children: [
        { type: 'markdown', content: `**${service}** is ${status === 'operational' ? 'operational ✅' : 'degraded ⚠️'}` },
        { type: 'button', label: status === 'operational' ? 'Report an incident' : 'Resolve the incident', onPress: { action: 'toggle' } },
      ],
    },
  };
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size > 1024 * 1024) req.destroy(new Error('too large'));
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Writes a comment on the space whose content changed, with the installation token the event came with. */
async function commentOnUpdate(apiUrl, token, event) {
  const body = { markdown: `Content updated (revision \`${event.revisionId}\`). The status block noticed.` };
  const answer = await fetch(`${apiUrl}/v1/spaces/${encodeURIComponent(event.spaceId)}/comments`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ body }),
  });
  if (!answer.ok) throw new Error(`commenting answered ${answer.status}: ${await answer.text()}`);
}

function createStatusBlockServer({ signingSecret, apiUrl, log = () => {} }) {
  const received = [];
  const server = http.createServer(async (req, res) => {
    const send = (status, value) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(value));
    };
    try {
      if (req.method === 'GET' && req.url.startsWith('/script.js')) {
        res.writeHead(200, { 'content-type': 'text/javascript' });
        res.end("document.documentElement.dataset.statusBlock = 'loaded';\n");
        return;
      }
      const body = await readBody(req);
      if (!verifySignature(signingSecret, req.headers[SIGNATURE_HEADER], body)) return send(401, { error: 'bad signature' });
      const payload = JSON.parse(body);
      if (req.method === 'POST' && req.url === '/render') {
        if (payload.componentId !== 'status') return send(404, { error: `no component ${payload.componentId}` });
        return send(200, renderStatus(payload));
      }
      if (req.method === 'POST' && req.url === '/events') {
        received.push(payload);
        log(`event ${payload.type}`);
        if (payload.type === 'space_content_updated') await commentOnUpdate(apiUrl, req.headers[TOKEN_HEADER], payload);
        return send(200, { ok: true });
      }
      send(404, { error: 'not found' });
    } catch (error) {
      log(`failed: ${error.message}`);
      send(500, { error: 'failed' });
    }
  });
  server.received = received;
  return server;
}

module.exports = { createStatusBlockServer, verifySignature, renderStatus };

if (require.main === module) {
  const signingSecret = process.env.SIGNING_SECRET;
  if (!signingSecret) throw new Error('SIGNING_SECRET is required (the secret you published the integration with)');
  const server = createStatusBlockServer({ signingSecret, apiUrl: process.env.API_URL || 'http://localhost:3000', log: (line) => console.log(line) });
  server.listen(Number(process.env.PORT || 8787), () => console.log(`status-block listening on ${server.address().port}`));
}
