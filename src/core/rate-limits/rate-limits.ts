import { MiddlewareChain, bearerToken } from '@app/common';
import { createHash } from 'node:crypto';
import { INestApplication } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { RateLimiter, Verdict } from './rate-limiter';

const READS = new Set(['GET', 'HEAD']);

/**
 * Every `/v1` request spends from its budgets (per token and per client address; reads and writes
 * apart) before anything else runs; every answer says where the tightest stands, with GitBook's
 * `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset` (epoch seconds). Over
 * budget: 429 with `Retry-After`. The token is counted by its hash, valid or not.
 */
export function mountRateLimits(app: INestApplication, chain: MiddlewareChain): void {
  const limiter = app.get(RateLimiter, { strict: false });
  if (!limiter.enabled) return;
  chain.use('/v1', (req: Request, res: Response, next: NextFunction) => {
    if (req.method === 'OPTIONS') return next();
    const bearer = bearerToken(req.headers.authorization);
    const tokenKey = bearer ? createHash('sha256').update(bearer).digest('base64url').slice(0, 32) : null;
    const kind = READS.has(req.method) ? 'read' : 'write';
    const address = req.ip ?? 'unknown';
    const answer = (verdict: Verdict) => {
      res.setHeader('X-RateLimit-Limit', String(verdict.limit));
      res.setHeader('X-RateLimit-Remaining', String(verdict.remaining));
      res.setHeader('X-RateLimit-Reset', String(verdict.reset));
      if (verdict.allowed) return next();
      res.setHeader('Retry-After', String(verdict.retryAfter));
      res.status(429).json({ error: { code: 429, message: `Too many requests: at most ${verdict.limit} per window; retry in ${verdict.retryAfter} s` } });
    };
    // Far from every limit the verdict is known at once; otherwise the store is asked.
    const now = limiter.consumeNow(kind, tokenKey, address);
    if (now) return answer(now);
    limiter.consume(kind, tokenKey, address).then(answer).catch(next);
  });
}
