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
export function installRequestParsing(app: INestApplication, bodyLimit: string): void {
  const express = app as NestExpressApplication;
  answerClientErrorsAsJson(express.getHttpServer());
  express.use(rejectNulInUrl);
  // The JSON parser answers unsupported charsets and Content-Encodings (415) and undecodable
  // gzip/deflate bodies (400) itself; the exception filter keeps those statuses.
  express.use(json({ limit: bodyLimit, type: ['application/json', 'application/*+json'], verify: rejectOversizedJson() }));
  express.use(endBodilessRequest);
  app.useGlobalGuards(new RequestBodyGuard(app.get(Reflector)));
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
