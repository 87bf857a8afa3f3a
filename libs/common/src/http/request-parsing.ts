import { INestApplication, NotFoundException, BadRequestException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { NextFunction, Request, Response, json } from 'express';
import { answerClientErrorsAsJson } from './client-errors';
import { rejectOversizedJson } from './json-depth';
import { nulInUrl } from './nul-characters';
import { RequestBodyGuard } from './request-body.guard';

/**
 * Everything that bounds what one request can make the server do before a handler runs:
 * NUL characters in the URL, JSON body size, depth and key count, the body's media type, and
 * JSON answers to requests Node itself refuses. Call before the app's other middleware.
 */
export function installRequestParsing(app: INestApplication, bodyLimit: string, largeBodies: LargeBodyRoute[] = [], rawBodies: RegExp[] = []): void {
  const express = app as NestExpressApplication;
  answerClientErrorsAsJson(express.getHttpServer());
  express.use(rejectNulInUrl);
  // The JSON parser answers unsupported charsets and Content-Encodings (415) and undecodable
  // gzip/deflate bodies (400) itself; the exception filter keeps those statuses.
  const type = ['application/json', 'application/*+json'];
  // A route with its own bound parses first; the general parser then finds the body read.
  for (const route of largeBodies) {
    const parse = json({ limit: route.limit, type, verify: rejectOversizedJson() });
    express.use((req: Request, res: Response, next: NextFunction) => (route.methods.includes(req.method) && route.path.test(req.path) ? parse(req, res, next) : next()));
  }
  const parse = json({ limit: bodyLimit, type, verify: rejectOversizedJson() });
  // Routes that stream their bodies themselves (uploads of any type) get them unread.
  express.use((req: Request, res: Response, next: NextFunction) => (rawBodies.some((path) => path.test(req.path)) ? next() : parse(req, res, next)));
  express.use(endBodilessRequest);
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

/**
 * A request that announces no body (no Content-Length, no Transfer-Encoding: every GET a client
 * sends) is read to its end now. Otherwise Node, finishing the response, finds the request unread
 * and attaches an 'end' listener to it, which on Express's re-prototyped request objects was 3% of
 * the CPU profile of `GET /v1/spaces/{id}`.
 */
function endBodilessRequest(req: Request, _res: Response, next: NextFunction): void {
  if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined && !req.readableEnded) req.resume();
  next();
}
