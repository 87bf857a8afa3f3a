'use strict';
// nest-prepared's work (bare-queries.js) with the NestJS features our API's reads use, and nothing of
// ours: a global guard that authenticates the bearer token, Nest's stock ValidationPipe applied
// globally, a custom parameter decorator for the caller, a validated query DTO, the If-None-Match
// header and a passthrough response for the ETag. Against nest-prepared it prices those framework
// features; ours against it prices our own layers (headers, access log, metrics, request context...).
// bench/run.js starts it when BENCH_NEST_FEATURED=1.
require('reflect-metadata');
const { NestFactory } = require('@nestjs/core');
const { Controller, Get, Headers, Module, NotFoundException, Param, Query, Res, UnauthorizedException, ValidationPipe, createParamDecorator } = require('@nestjs/common');
const { IsOptional, IsString, MaxLength } = require('class-validator');
const { caller, space, spaces } = require('./bare-queries');

class BearerGuard {
  async canActivate(context) {
    const request = context.switchToHttp().getRequest();
    request.user = await caller(request.headers.authorization);
    if (!request.user) throw new UnauthorizedException();
    return true;
  }
}

const CurrentUser = createParamDecorator((_data, context) => context.switchToHttp().getRequest().user);

class SpaceQuery {}
Reflect.decorate([IsOptional(), IsString(), MaxLength(256)], SpaceQuery.prototype, 'shareKey');
class ListQuery {}
Reflect.decorate([IsOptional(), IsString()], ListQuery.prototype, 'limit');

class FeaturedController {
  async space(user, id, _query, ifNoneMatch, res) {
    const body = await space(user, id);
    if (!body) throw new NotFoundException();
    const tag = `"space.${id}"`;
    res.setHeader('ETag', tag);
    if (ifNoneMatch === tag) return void res.status(304);
    return body;
  }

  async spaces(user, organizationId, query) {
    return spaces(user, organizationId, Number(query.limit || 50));
  }
}

function route(method, path, params, types) {
  params.forEach((decorator, index) => decorator(FeaturedController.prototype, method, index));
  const descriptor = Object.getOwnPropertyDescriptor(FeaturedController.prototype, method);
  Reflect.decorate([Get(path), Reflect.metadata('design:paramtypes', types)], FeaturedController.prototype, method, descriptor);
}
route('space', 'spaces/:id', [CurrentUser(), Param('id'), Query(), Headers('if-none-match'), Res({ passthrough: true })], [Object, String, SpaceQuery, String, Object]);
route('spaces', 'orgs/:id/spaces', [CurrentUser(), Param('id'), Query()], [Object, String, ListQuery]);
Reflect.decorate([Controller('v1')], FeaturedController);
class FeaturedModule {}
Reflect.decorate([Module({ controllers: [FeaturedController] })], FeaturedModule);

async function main() {
  const app = await NestFactory.create(FeaturedModule, { logger: false });
  app.useGlobalPipes(new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true, transform: true }));
  app.useGlobalGuards(new BearerGuard());
  await app.listen(Number(process.env.PORT || 0), '127.0.0.1');
  if (process.send) process.send({ port: app.getHttpServer().address().port });
}

main();
// A clean exit on SIGTERM, so --cpu-prof (BENCH_PROFILE_DIR) writes its profile.
process.on('SIGTERM', () => process.exit(0));
