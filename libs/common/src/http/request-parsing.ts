import { INestApplication, NotFoundException, BadRequestException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { NextFunction, Request, Response, json } from 'express';
import { answerClientErrorsAsJson } from './client-errors';
import { MiddlewareChain } from './middleware-chain';
import { rejectOversizedJson } from './json-depth';
import { nulInUrl } from './nul-characters';
import { RequestBodyGuard } from './request-body.guard';

/**
 * Everything that bounds what one request can make the server do before a handler runs:
 * NUL characters in the URL, JSON body size, depth and key count, the body's media type, and
 * JSON answers to requests Node itself refuses. Its steps go first in the app's middleware chain.
 */
export function installRequestParsing(app: INestApplication, chain: MiddlewareChain, bodyLimit: string, largeBodies: LargeBodyRoute[] = [], rawBodies: RegExp[] = []): void {
  const express = app as NestExpressApplication;
  answerClientErrorsAsJson(express.getHttpServer());
  chain.use(rejectNulInUrl);
  // The JSON parser answers unsupported charsets and Content-Encodings (415) and undecodable
  // gzip/deflate bodies (400) itself; the exception filter keeps those statuses.
  const type = ['application/json', 'application/*+json'];
  const parsers = largeBodies.map((route) => ({ ...route, parse: json({ limit: route.limit, type, verify: rejectOversizedJson() }) }));
  const parse = json({ limit: bodyLimit, type, verify: rejectOversizedJson() });
  chain.use((req: Request, res: Response, next: NextFunction) => {
    if (!announcesBody(req)) return endBodilessRequest(req, next);
    // A route with its own bound; routes that stream their bodies themselves (uploads of any type) get them unread.
    const large = parsers.find((route) => route.methods.includes(req.method) && route.path.test(req.path));
    if (large) return large.parse(req, res, next);
    if (rawBodies.some((path) => path.test(req.path))) return next();
    parse(req, res, next);
  });
  app.useGlobalGuards(new RequestBodyGuard(app.get(Reflector)));
}

/** Routes whose JSON bodies may exceed BODY_LIMIT (OpenAPI specs sent as text), with their own bound in bytes. */
export interface LargeBodyRoute {
  methods: string[];
  path: RegExp;
  limit: number;
}

/** `%00` in a path id is a 404 (no resource has that id), in the query string a 400. */
function rejectNulInUrl(req: Request, _res: Response, next: NextFunction): void {
  const where = nulInUrl(req.url);
  if (where === 'path') next(new NotFoundException('Not found'));
  else if (where === 'query') next(new BadRequestException('Query parameters may not contain a NUL character (%00)'));
  else next();
}

function announcesBody(req: Request): boolean {
  return req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;
}

/**
 * A request that announces no body (no Content-Length, no Transfer-Encoding: every GET a client
 * sends) is read to its end now, without a parser. Otherwise Node, finishing the response, finds
 * the request unread and attaches an 'end' listener to it, which on Express's re-prototyped request
 * objects was 3% of the CPU profile of `GET /v1/spaces/{id}`.
 */
function endBodilessRequest(req: Request, next: NextFunction): void {
  if (!req.readableEnded) req.resume();
  next();
}
