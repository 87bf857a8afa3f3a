import type { INestApplication } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import helmet from 'helmet';

/** Where Swagger UI is served (see configureApi). */
const DOCS_PATH = /^\/docs(?:\/|$)/;
/** The operator console (Bull Board and its sign-in page): HTML like /docs, but behind a sign-in. */
const CONSOLE_PATH = /^\/admin(?:\/|$)/;
/** Public downloads meant to be embedded or linked from other sites (published docs, clients). */
const EMBEDDABLE_PATH = /^\/(?:v1\/files|pdf)\//;

/**
 * Security headers on every response, set by helmet before routing so error responses carry
 * them too:
 * - the API answers JSON, so its CSP allows nothing at all (`default-src 'none'`) and no page may
 *   frame it (`frame-ancestors 'none'` plus `X-Frame-Options: DENY` for old browsers);
 * - `/docs` (Swagger UI) loads its scripts from this origin (none inline), needs inline styles
 *   and data: images, and calls the API for "Try it out": its own CSP allows exactly that; the operator
 *   console (/admin, Bull Board) needs the same (its only inline script is a JSON data block);
 * - `Cache-Control: no-store` by default, so no shared cache keeps a response made for a token
 *   holder (or one that carries a secret, like the SAML sign-in answer); handlers whose answers
 *   are immutable and public (file downloads) set their own caching.
 * Handlers may still set a stricter or more specific header (file downloads add a sandbox CSP).
 */
export function applySecurityHeaders(app: INestApplication, publicUrl: string): void {
  const apiOrigin = new URL(publicUrl).origin;
  const api = helmet({
    contentSecurityPolicy: { useDefaults: false, directives: { 'default-src': ["'none'"], 'frame-ancestors': ["'none'"] } },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
  });
  // The file download sets its own sandboxing CSP; a PDF gets none, as browsers' PDF viewers may refuse to run under one.
  const embeddable = helmet({
    contentSecurityPolicy: false,
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    crossOriginResourcePolicy: { policy: 'cross-origin' },
  });
  const docs = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'"],
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:'],
        'connect-src': ["'self'", apiOrigin],
        'object-src': ["'none'"],
        'base-uri': ["'self'"],
        'form-action': ["'self'"],
        'frame-ancestors': ["'none'"],
      },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
  });
  app.use((req: Request, res: Response, next: NextFunction) => {
    const path = req.path;
    if (DOCS_PATH.test(path)) return docs(req, res, next);
    res.setHeader('Cache-Control', 'no-store');
    if (CONSOLE_PATH.test(path)) return docs(req, res, next);
    return (EMBEDDABLE_PATH.test(path) ? embeddable : api)(req, res, next);
  });
}
