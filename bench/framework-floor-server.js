'use strict';
// Child of framework-floor.js: one GET route answering a small constant JSON object, served by
// node:http alone (FLOOR=bare) or by NestJS on Express with nothing of ours (FLOOR=nest).
require('reflect-metadata');
const http = require('node:http');
const { NestFactory } = require('@nestjs/core');
const { Controller, Get, Module, Param } = require('@nestjs/common');

const body = (id) => ({ object: 'space', id, title: 'Floor' });

class FloorController {
  get(id) {
    return body(id);
  }
}
Param('id')(FloorController.prototype, 'get', 0);
Reflect.decorate([Get('spaces/:id'), Reflect.metadata('design:paramtypes', [String])], FloorController.prototype, 'get', Object.getOwnPropertyDescriptor(FloorController.prototype, 'get'));
Reflect.decorate([Controller('v1')], FloorController);
class FloorModule {}
Reflect.decorate([Module({ controllers: [FloorController] })], FloorModule);

async function main() {
  let server;
  if (process.env.FLOOR === 'nest') {
    const app = await NestFactory.create(FloorModule, { logger: false });
    await app.listen(0, '127.0.0.1');
    server = app.getHttpServer();
  } else {
    server = http.createServer((req, res) => {
      const json = JSON.stringify(body(req.url.split('/').pop()));
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(json) });
      res.end(json);
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  }
  process.send({ port: server.address().port });
}

main();
