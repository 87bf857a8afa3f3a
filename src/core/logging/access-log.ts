import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { redactUrl } from './redact-url';

/** Told of every response sent in full, with its duration in seconds. */
export type AnsweredObserver = (req: Request, res: Response, seconds: number) => void;

/** A caller's `X-Request-Id` is echoed when it is this sane; otherwise the server makes one. */
const REQUEST_ID = /^[\w.-]{1,128}$/;

/**
 * The access log: every request, API or not (published sites, downloads, the console), gets an
 * id echoed in `X-Request-Id` and, once answered, one line with its id, method, path, status and
 * duration. Only those: never headers, bodies or query strings, and the secret segment of
 * credential-bearing paths is replaced (redactUrl), so tokens cannot end up in logs.
 *
 * Written for the hot path: no child logger and no serializers per request, and nothing built
 * unless the line's level is enabled (a 5xx is an error, anything else info). `answered` (the
 * request-duration metric) learns of each response sent in full from the same listener.
 */
export function accessLog(logger: Logger, answered?: AnsweredObserver): (req: Request, res: Response, next: NextFunction) => void {
  return (req, res, next) => {
    const incoming = req.headers['x-request-id'];
    const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    res.setHeader('X-Request-Id', id);
    const started = performance.now();
    // 'close' comes once per response (so `on`, without `once`'s wrapper), after 'finish' when the answer was sent in full.
    res.on('close', () => {
      if (answered && res.writableFinished) answered(req, res, (performance.now() - started) / 1000);
      const failed = res.statusCode >= 500;
      if (!logger.isLevelEnabled(failed ? 'error' : 'info')) return;
      const line = {
        req: { id, method: req.method, path: redactUrl(req.originalUrl) },
        res: { statusCode: res.statusCode },
        responseTime: Math.round(performance.now() - started),
        service: 'api',
      };
      if (failed) logger.error(line, 'request errored');
      else logger.info(line, res.writableFinished ? 'request completed' : 'request aborted');
    });
    next();
  };
}
