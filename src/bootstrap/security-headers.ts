import type { NextFunction, Request, Response } from 'express';
import helmet from 'helmet';

/** Where Swagger UI is served (see configureApi). */
const DOCS_PATH = /^\/docs(?:\/|$)/;
/** The operator console (Bull Board and its sign-in page): HTML like /docs, but behind a sign-in. */
const CONSOLE_PATH = /^\/admin(?:\/|$)/;
/** Public downloads meant to be embedded or linked from other sites (published docs, clients). */
const EMBEDDABLE_PATH = /^\/(?:v1\/files|pdf)\//;

/**
 * Security headers on every response, set (as helmet would) before routing so error responses
 * carry them too:
 * - the API answers JSON, so its CSP allows nothing at all (`default-src 'none'`) and no page may
 *   frame it (`frame-ancestors 'none'` plus `X-Frame-Options: DENY` for old browsers); helmet's
 *   headers for HTML documents only are left out (see `api` below);
 * - `/docs` (Swagger UI) loads its scripts from this origin (none inline), needs inline styles
 *   and data: images, and calls the API for "Try it out": its own CSP allows exactly that; the operator
 *   console (/admin, Bull Board) needs the same (its only inline script is a JSON data block);
 * - `Cache-Control: no-store` by default, so no shared cache keeps a response made for a token
 *   holder (or one that carries a secret, like the SAML sign-in answer); handlers whose answers
 *   are immutable and public (file downloads) set their own caching.
 * Handlers may still set a stricter or more specific header (file downloads add a sandbox CSP).
 */
export function securityHeaders(publicUrl: string): (req: Request, res: Response, next: NextFunction) => void {
  const apiOrigin = new URL(publicUrl).origin;
  // JSON answers leave out helmet's headers that only steer how a browser treats an HTML document
  // (Origin-Agent-Cluster, DNS prefetching in its links, IE8's open-in-place, Flash and Acrobat
  // cross-domain policy files, the old XSS auditor): a JSON answer is never rendered as one, its
  // CSP forbids everything, and each header is work on every answer of the hottest reads.
  const api = helmet({
    contentSecurityPolicy: { useDefaults: false, directives: { 'default-src': ["'none'"], 'frame-ancestors': ["'none'"] } },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    originAgentCluster: false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
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
  // Every header here is static, so each set is computed once and copied onto responses (helmet
  // runs a dozen middleware functions per request otherwise).
  const [apiHeaders, embeddableHeaders, docsHeaders] = [api, embeddable, docs].map(headersOf);
  return (req: Request, res: Response, next: NextFunction) => {
    const path = req.path;
    if (DOCS_PATH.test(path)) return setAll(res, docsHeaders, next);
    res.setHeader('Cache-Control', 'no-store');
    if (CONSOLE_PATH.test(path)) return setAll(res, docsHeaders, next);
    return setAll(res, EMBEDDABLE_PATH.test(path) ? embeddableHeaders : apiHeaders, next);
  };
}

type Middleware = (req: Request, res: Response, next: (error?: unknown) => void) => void;

/** The headers a helmet configuration sets, read by running it once on a recording response. */
function headersOf(middleware: Middleware): Array<[string, string]> {
  const headers = new Map<string, string>();
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => headers.set(name, String(value)),
    removeHeader: (name: string) => headers.delete(name),
    getHeader: (name: string) => headers.get(name),
  };
  let done = false;
  middleware({ method: 'GET', headers: {} } as Request, recorder as unknown as Response, () => (done = true));
  if (!done) throw new Error('helmet did not finish synchronously: its headers cannot be computed once');
  return [...headers];
}

function setAll(res: Response, headers: Array<[string, string]>, next: NextFunction): void {
  for (const [name, value] of headers) res.setHeader(name, value);
  // helmet also removes X-Powered-By; Express's is disabled in configureApi.
  next();
}
