'use strict';
// The ceiling of the fixed stack: the bare server's work (bare-queries.js, the same statements and
// presenter) served by NestJS on Express as a plain controller, with nothing of ours around it (no
// guards, pipes, security headers, access log, metrics or request context). Our API cannot be
// faster than this on NestJS; bench/run.js measures both against the node:http baseline.
require('reflect-metadata');
const { NestFactory } = require('@nestjs/core');
const { Controller, Get, Headers, Module, NotFoundException, Param, Query, UnauthorizedException } = require('@nestjs/common');
const { caller, space, spaces } = require('./bare-queries');

async function authorized(authorization) {
  const user = await caller(authorization);
  if (!user) throw new UnauthorizedException();
  return user;
}

class BaselineController {
  async space(authorization, id) {
    const body = await space(await authorized(authorization), id);
    if (!body) throw new NotFoundException();
    return body;
  }

  async spaces(authorization, organizationId, limit) {
    return spaces(await authorized(authorization), organizationId, Number(limit || 50));
  }
}

function route(method, path, params) {
  params.forEach((decorator, index) => decorator(BaselineController.prototype, method, index));
  const descriptor = Object.getOwnPropertyDescriptor(BaselineController.prototype, method);
  Reflect.decorate([Get(path), Reflect.metadata('design:paramtypes', params.map(() => String))], BaselineController.prototype, method, descriptor);
}
route('space', 'spaces/:id', [Headers('authorization'), Param('id')]);
route('spaces', 'orgs/:id/spaces', [Headers('authorization'), Param('id'), Query('limit')]);
Reflect.decorate([Controller('v1')], BaselineController);
class BaselineModule {}
Reflect.decorate([Module({ controllers: [BaselineController] })], BaselineModule);

async function main() {
  const app = await NestFactory.create(BaselineModule, { logger: false });
  await app.listen(Number(process.env.PORT || 0), '127.0.0.1');
  if (process.send) process.send({ port: app.getHttpServer().address().port });
}

main();
// A clean exit on SIGTERM, so --cpu-prof (BENCH_PROFILE_DIR) writes its profile.
process.on('SIGTERM', () => process.exit(0));
