import { INestApplication, Logger } from '@nestjs/common';
import type { NextFunction, Request, Response, Router } from 'express';
import { AppConfig } from '@app/common';
import { PublishedReader, ReaderResponse } from '../application/published-reader.service';
import { RateLimiter } from '../../../core/rate-limits/rate-limiter';
import { renderNotice } from '../domain/site-page-html';

/** Paths of this server's own surfaces: never a custom host's page. */
const SERVER_PATHS = /^\/(?:v1|health|docs|openapi\.json|admin|metrics|sso|pdf|openapi)(?:\/|$)/;
/** A host name a site may claim (GitBook's pattern: at least three labels); IP addresses and localhost never are. */
const SITE_HOST = /^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?[.]){2,}[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$/;

/**
 * Published sites for readers, in front of the API's routes: `/sites/{basename or id}/...` on any
 * host of this server, and every path of a host a site claims. Plain Express: the pages are not part
 * of the API (no /v1, no token, no JSON errors), and a page view should cost no more than it must.
 */
export function mountPublishedSites(app: INestApplication, config: AppConfig, into: Router): void {
  const reader = app.get(PublishedReader, { strict: false });
  const limiter = app.get(RateLimiter, { strict: false });
  const publicUrl = new URL(config.publicUrl);
  const base = publicUrl.pathname.replace(/\/+$/, '');
  const logger = new Logger('PublishedSites');


  into.use((req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const path = req.path;
    const addressed = siteAddress(req, publicUrl);
    if (!addressed) return next();
    const { url, onServer } = addressed;
    readerBudget(limiter, path.includes('/~search'), req.ip ?? 'unknown', res)
      .then((allowed) => (allowed ? reader.handle({ url, cookies: parseCookies(req.headers.cookie), cookieHeader: req.headers.cookie, ifNoneMatch: req.headers['if-none-match'], visitor: `${req.ip ?? ''}|${req.headers['user-agent'] ?? ''}`, referrer: req.headers.referer }) : undefined))
      .then((response) => {
        if (response === undefined) return;
        if (!response) {
          if (onServer) return send(res, { status: 404, headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' }, body: renderNotice({ title: 'Site not found', message: 'No published site lives at this address.' }) });
          return next();
        }
        send(res, response);
      })
      .catch((error: unknown) => {
        // Only the site's segment: the rest may hold a share key, and the query a visitor token.
        logger.error({ err: error, site: onServer ? path.split('/')[base.split('/').length + 1] : url.hostname }, 'published page failed');
        send(res, { status: 500, headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' }, body: renderNotice({ title: 'Something went wrong', message: 'This page could not be shown. Try again in a moment.' }) });
      });
  });
}

/**
 * The site address a request names: under `/sites/` on this server (read as the public URL,
 * whatever Host a proxy passed on), or any path of a host a site may claim; null otherwise.
 */
export function siteAddress(req: Request, publicUrl: URL): { url: URL; onServer: boolean } | null {
  const base = publicUrl.pathname.replace(/\/+$/, '');
  const onServer = req.path.startsWith(`${base}/sites/`);
  const host = (req.hostname ?? '').toLowerCase();
  const customHost = !onServer && host !== publicUrl.hostname && SITE_HOST.test(host) && !SERVER_PATHS.test(req.path);
  if (!onServer && !customHost) return null;
  return { url: onServer ? new URL(req.originalUrl, publicUrl.origin) : new URL(req.originalUrl, `${req.protocol}://${req.headers.host}`), onServer };
}

/**
 * Anonymous readers spend from a budget per address (pages and searches apart, RATE_LIMIT_READER_*):
 * over it, a 429 page with `Retry-After`. Resolves whether the request may go on.
 */
export async function readerBudget(limiter: RateLimiter, search: boolean, address: string, res: Response): Promise<boolean> {
  if (!limiter.enabled) return true;
  const verdict = await limiter.consumeReader(search ? 'search' : 'page', address);
  if (verdict.allowed) return true;
  send(res, {
    status: 429,
    headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', 'Retry-After': String(verdict.retryAfter) },
    body: renderNotice({ title: 'Too many requests', message: `Slow down: try again in ${verdict.retryAfter} s.` }),
  });
  return false;
}

function send(res: Response, response: ReaderResponse): void {
  res.status(response.status);
  for (const [name, value] of Object.entries(response.headers)) res.setHeader(name, value);
  if (response.status === 304 || res.req.method === 'HEAD') {
    res.end();
    return;
  }
  res.end(response.body);
}

export function parseCookies(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!header) return out;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 1) continue;
    const name = part.slice(0, eq).trim();
    try {
      out[name] = decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      out[name] = part.slice(eq + 1).trim();
    }
  }
  return out;
}
