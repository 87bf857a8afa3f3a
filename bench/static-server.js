'use strict';
// The baseline for the published-site benchmark: node:http answering the same bytes from memory.
const http = require('node:http');
const { readFileSync } = require('node:fs');

const body = readFileSync(process.env.STATIC_BODY_FILE);
const headers = { 'content-type': 'text/html; charset=utf-8', 'content-length': String(body.length) };
const server = http.createServer((_req, res) => {
  res.writeHead(200, headers);
  res.end(body);
});
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
