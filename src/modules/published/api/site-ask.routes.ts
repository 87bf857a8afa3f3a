import { INestApplication, Logger } from '@nestjs/common';
import type { NextFunction, Request, Response, Router } from 'express';
import { openEventStream } from '../../../core/event-stream';
import { AppConfig, DomainError, STATUS_BY_KIND, errorBody } from '@app/common';
import { RateLimiter } from '../../../core/rate-limits/rate-limiter';
import { unsignedClaimsFromQuery } from '../../sites/domain/condition';
import { VisitorAuthRequiredError, VisitorInput } from '../../sites/domain/visitor';
import { CLAIMS_COOKIE, VISITOR_COOKIE, parseClaimsCookie } from '../application/visitor-cookies';
import { ReaderAsk } from '../application/reader-ask';
import { parseCookies, readerBudget, siteAddress } from './published-site.routes';

const ASK_PATH = /^(.*?)\/~gitbook\/ask\/?$/;

/**
 * `<site address>/~gitbook/ask`: the Ask box of the site's pages (POST `{question}`), answered as
 * server-sent events `data: {type: "answer", html, sources}` (with a model, the passages at once,
 * then the model's answer), then `event: done`. The reader is who the page was served to: the
 * address (share links), the visitor cookie or `jwt_token`, and their claims.
 */
export function mountSiteAsk(app: INestApplication, config: AppConfig, into: Router): void {
  const readerAsk = app.get(ReaderAsk, { strict: false });
  const limiter = app.get(RateLimiter, { strict: false });
  const publicUrl = new URL(config.publicUrl);
  const logger = new Logger('SiteAsk');

  into.use((req: Request, res: Response, next: NextFunction) => {
    if (!ASK_PATH.test(req.path)) return next();
    const addressed = siteAddress(req, publicUrl);
    if (!addressed) return next();
    if (req.method !== 'POST') return refuse(res, 405, 'POST a question');
    const siteUrl = new URL(addressed.url);
    siteUrl.pathname = siteUrl.pathname.replace(/\/~gitbook\/ask\/?$/, '') || '/';
    siteUrl.search = '';
    serve(req, res, siteUrl, addressed.url).catch((error: unknown) => {
      if (res.headersSent) {
        logger.error({ err: error, site: siteUrl.hostname }, 'site Ask stream failed');
        return res.end();
      }
      if (error instanceof VisitorAuthRequiredError) return refuse(res, 401, error.message);
      if (error instanceof DomainError) return refuse(res, error.kind === 'not-found' ? 404 : STATUS_BY_KIND[error.kind], error.kind === 'not-found' ? 'No published site lives at this address' : error.message, error.retryAfterSeconds);
      logger.error({ err: error, site: siteUrl.hostname }, 'site Ask failed');
      refuse(res, 500, 'The question could not be answered');
    });
  });

  async function serve(req: Request, res: Response, siteUrl: URL, requested: URL): Promise<void> {
    if (!(await readerBudget(limiter, true, req.ip ?? 'unknown', res))) return;
    const cookies = parseCookies(req.headers.cookie);
    const body = (req.body ?? {}) as { question?: unknown };
    const visitor = await visitorOf(siteUrl, requested, cookies);
    const asked = await readerAsk.prepare(siteUrl, visitor, body.question);
    try {
      await answer(res, asked);
    } finally {
      await asked.tools?.close();
    }
  }

  async function answer(res: Response, asked: Awaited<ReturnType<ReaderAsk['prepare']>>): Promise<void> {
    await readerAsk.budget(asked.reading.site.organizationId);
    const aborted = new AbortController();
    res.on('close', () => aborted.abort());
    openEventStream(res);
    const send = (answer: object) => res.write(`data: ${JSON.stringify({ type: 'answer', ...answer })}\n\n`);
    if (asked.passages.length) send(readerAsk.extractive(asked));
    const { shown, answered } = await readerAsk.answer(asked, aborted.signal);
    send(shown);
    await readerAsk.record(asked, answered);
    res.end('event: done\ndata: {}\n\n');
  }

  /** The reader as the page saw them: the visitor token (query, then the site's cookie) and the claims sent unsigned. */
  async function visitorOf(siteUrl: URL, requested: URL, cookies: Record<string, string>): Promise<VisitorInput> {
    const site = await readerAsk.siteIdAt(siteUrl);
    const token = requested.searchParams.get('jwt_token') ?? (site ? cookies[`${VISITOR_COOKIE}-${site}`] : undefined);
    const claims = { ...(site ? parseClaimsCookie(cookies[`${CLAIMS_COOKIE}-${site}`]) : {}), ...unsignedClaimsFromQuery(Object.fromEntries(requested.searchParams)) };
    return { jwtToken: token, unsignedClaims: claims };
  }
}

function refuse(res: Response, status: number, message: string, retryAfter?: number): void {
  if (retryAfter) res.setHeader('Retry-After', String(retryAfter));
  res.status(status).json(errorBody(status, message));
}
