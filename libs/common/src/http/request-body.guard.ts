import { BadRequestException, CanActivate, ExecutionContext, Injectable, UnsupportedMediaTypeException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { containsNul } from './nul-characters';

/**
 * The media types a route declares with `@ApiConsumes` (the metadata key of @nestjs/swagger):
 * the served OpenAPI and the runtime check read the same declaration. Routes that declare
 * nothing take JSON.
 */
const API_CONSUMES = 'swagger/apiConsumes';
const JSON_TYPES = ['application/json'];

/**
 * Global guard on every route, before pipes and handlers:
 * - a request body the route does not take (XML, text, form or multipart sent to a JSON route,
 *   or a body without a Content-Type) is a 415 instead of being silently ignored;
 * - a body holding a NUL character in any string or property name, whichever parser read it,
 *   is a 400 before anything reaches PostgreSQL (which refuses the character).
 * A request without a body (no Content-Length or 0, no Transfer-Encoding) passes the first check
 * whatever its Content-Type says.
 */
@Injectable()
export class RequestBodyGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    const request = context.getArgByIndex<Request>(0);
    if (hasBody(request)) {
      const accepted =
        this.reflector.getAllAndOverride<string[] | undefined>(API_CONSUMES, [context.getHandler(), context.getClass()]) ?? JSON_TYPES;
      const type = mediaType(request.headers['content-type']);
      if (!type || !accepted.some((candidate) => matches(type, candidate))) {
        throw new UnsupportedMediaTypeException(
          `${type ? `Content-Type ${type}` : 'A body without Content-Type'} is not accepted here; send ${accepted.join(' or ')}`,
        );
      }
    }
    if (containsNul(request.body)) {
      throw new BadRequestException('Request body contains a NUL character (\\u0000), which is not accepted');
    }
    return true;
  }
}

function hasBody(request: Request): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** The essence of a Content-Type (`application/json; charset=utf-8` -> `application/json`). */
function mediaType(header: string | undefined): string | undefined {
  const essence = header?.split(';')[0].trim().toLowerCase();
  return essence ? essence : undefined;
}

/** `application/json` also accepts structured-syntax suffixes (`application/merge-patch+json`), as the JSON parser does. */
function matches(type: string, accepted: string): boolean {
  if (type === accepted || accepted === '*/*') return true;
  return accepted === 'application/json' && /^application\/[a-z0-9.!#$&^_-]+\+json$/.test(type);
}
