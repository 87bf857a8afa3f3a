import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Response } from 'express';
import { QueryFailedError } from 'typeorm';
import { DomainError } from './domain-errors';
import { errorBody, STATUS_BY_KIND } from './error-status';
import { OUTAGE_RETRY_AFTER_SECONDS, isDependencyOutage } from './outages';

const PG_UNIQUE_VIOLATION = '23505';
const PG_SERIALIZATION_FAILURE = '40001';
const PG_DEADLOCK = '40P01';
const PG_FOREIGN_KEY_VIOLATION = '23503';

/**
 * Maps every error to `{"error": {"code", "message"}}`. Unknown errors become a 500 without
 * leaking internals; races the database detects become 409 so the loser of a race is told so;
 * a dependency that is away (PostgreSQL, Redis, the file store) is a 503 with Retry-After.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<Response>();
    const { status, message, retryAfter } = this.describe(exception);
    if (status === 503) this.logger.warn(`Answered 503: ${exception instanceof Error ? exception.message : String(exception)}`);
    else if (status >= 500) this.logger.error(exception instanceof Error ? exception.stack : String(exception));
    if (res.headersSent) return;
    if (retryAfter) res.setHeader('Retry-After', String(retryAfter));
    res.status(status).json(errorBody(status, message));
  }

  private describe(exception: unknown): { status: number; message: string; retryAfter?: number } {
    if (exception instanceof DomainError) {
      const status = STATUS_BY_KIND[exception.kind];
      return { status, message: exception.message, retryAfter: exception.retryAfterSeconds };
    }
    if (isDependencyOutage(exception)) {
      return { status: 503, message: 'A service the server depends on is unavailable; retry shortly', retryAfter: OUTAGE_RETRY_AFTER_SECONDS };
    }
    if (exception instanceof HttpException) {
      return { status: exception.getStatus(), message: httpMessage(exception) };
    }
    if (exception instanceof QueryFailedError) {
      const code = (exception as QueryFailedError & { code?: string }).code;
      if (code === PG_UNIQUE_VIOLATION) return { status: 409, message: 'The resource already exists or was changed concurrently' };
      if (code === PG_SERIALIZATION_FAILURE || code === PG_DEADLOCK) {
        return { status: 409, message: 'The resource was changed concurrently; retry the request' };
      }
      if (code === PG_FOREIGN_KEY_VIOLATION) return { status: 409, message: 'A referenced resource no longer exists' };
    }
    const bodyParserError = describeBodyParserError(exception);
    if (bodyParserError) return bodyParserError;
    return { status: 500, message: 'Unexpected error' };
  }
}

function httpMessage(exception: HttpException): string {
  const response = exception.getResponse();
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  if (Array.isArray(message)) return message.join('; ');
  if (typeof message === 'string') return message;
  return exception.message;
}

/**
 * Client errors raised by Express and its body parsers (http-errors: a 4xx `status`, `expose`
 * set, a `type` from the parsers) keep their status, with a message of ours.
 */
const BODY_PARSER_MESSAGES: Record<string, string> = {
  'entity.parse.failed': 'Malformed JSON in request body',
  'entity.too.large': 'Request body is too large',
  'charset.unsupported': 'Unsupported charset in Content-Type; send UTF-8',
  'encoding.unsupported': 'Unsupported Content-Encoding; send identity, gzip, deflate or br',
  'request.aborted': 'Request body was aborted',
  'request.size.invalid': 'Request body does not match its Content-Length',
  'parameters.too.many': 'Too many parameters in the form body',
};

function describeBodyParserError(exception: unknown): { status: number; message: string } | undefined {
  const { type, status, expose, code } = (exception ?? {}) as { type?: unknown; status?: unknown; expose?: unknown; code?: unknown };
  if (typeof status !== 'number' || status < 400 || status >= 500) return undefined;
  if (typeof type !== 'string' && expose !== true) return undefined;
  if (typeof type === 'string' && BODY_PARSER_MESSAGES[type]) return { status, message: BODY_PARSER_MESSAGES[type] };
  // A gzip, deflate or br body that does not inflate fails in zlib (Z_DATA_ERROR...); the parser makes it a 400.
  if (typeof code === 'string' && code.startsWith('Z_')) return { status, message: 'Request body does not match its Content-Encoding' };
  return { status, message: 'Malformed request' };
}
