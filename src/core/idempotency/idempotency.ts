import { MiddlewareChain, bearerToken } from '@app/common';
import { createCipheriv, createDecipheriv, createHash, randomBytes, randomUUID } from 'node:crypto';
import { INestApplication } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { IdempotencyStore, StoredAnswer } from './idempotency-store';

const HEADER = 'idempotency-key';
const KEY = /^[\x21-\x7e]{1,255}$/;
/** Answer headers a replay repeats (the rest, like rate-limit headers, describe the new request). */
const REPLAYED_HEADERS = ['content-type', 'etag', 'location'];

/** The credential a bearer token is, when it is a valid one (an API token's id); null otherwise. */
export type IdempotencyAuthenticator = (bearer: string) => Promise<string | null>;

/**
 * `Idempotency-Key` on POST and PATCH under `/v1`: the first answer is stored for
 * IDEMPOTENCY_TTL_HOURS per credential and key. A repeat with the same method, path and body gets
 * that answer again with `Idempotent-Replayed: true`; a different request with the key is a 422; a
 * repeat while the first is still running is a 409. Answers not worth replaying (5xx, 429, a
 * dropped connection) free the key, so the client can retry with it.
 *
 * The caller is authenticated first: a revoked token, or one of a disabled user, is never
 * answered from the store (the guard then answers 401). Stored answers are sealed (AES-256-GCM)
 * with a key derived from the bearer token and the Idempotency-Key, which the store never holds:
 * a secret shown once in an answer (a webhook's secret, a share link's key) is unreadable there.
 */
export function mountIdempotency(app: INestApplication, chain: MiddlewareChain, authenticate: IdempotencyAuthenticator): void {
  const store = app.get(IdempotencyStore, { strict: false });
  if (!store.enabled) return;
  chain.use('/v1', (req: Request, res: Response, next: NextFunction) => {
    const key = req.headers[HEADER];
    if ((req.method !== 'POST' && req.method !== 'PATCH') || key === undefined) return next();
    if (typeof key !== 'string' || !KEY.test(key)) return refuse(res, 400, 'Idempotency-Key: 1 to 255 visible ASCII characters');
    const bearer = bearerToken(req.headers.authorization);
    if (!bearer) return next(); // unauthenticated: the guard answers 401, nothing to replay
    // A JSON body counts as parsed (spacing aside); any other body by its media type and length.
    const body = req.body !== undefined ? JSON.stringify(req.body) : `${req.headers['content-type'] ?? ''} ${req.headers['content-length'] ?? ''}`;
    const fingerprint = digest(`${req.method} ${req.originalUrl}\n${body}`);
    const owner = randomUUID();
    const seal = answerSeal(bearer, key);
    authenticate(bearer)
      .then(async (credential) => {
        if (!credential) return next(); // invalid, revoked or disabled: the guard answers 401
        // One digest (the store's key column holds at most 100 characters) of the credential, the bearer and the key.
        const scoped = digest(`${credential}\n${bearer}\n${key}`);
        const claim = await store.claim(scoped, owner, fingerprint);
        if (claim.state !== 'claimed' && claim.fingerprint !== fingerprint) {
          return refuse(res, 422, 'Idempotency-Key was already used with a different request (method, path or body)');
        }
        if (claim.state === 'in-flight') return refuse(res, 409, 'A request with this Idempotency-Key is still in progress; retry later');
        if (claim.state === 'done') return replay(res, seal.open(claim.answer));
        capture(res, (answer) => {
          const keep = answer && answer.status < 500 && answer.status !== 429;
          return (keep ? store.complete(scoped, owner, fingerprint, seal.close(answer)) : store.release(scoped, owner)).catch(() => undefined);
        });
        next();
      })
      .catch(next);
  });
}

/** Seals an answer with a key only the caller holds (derived from its bearer token and its Idempotency-Key). */
function answerSeal(bearer: string, key: string): { close(answer: StoredAnswer): StoredAnswer; open(stored: StoredAnswer): StoredAnswer } {
  const secret = createHash('sha256').update(`idempotent-answer\0${bearer}\0${key}`).digest();
  return {
    close(answer) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', secret, iv);
      const data = Buffer.concat([cipher.update(answer.body, 'utf8'), cipher.final()]);
      return { ...answer, body: ['v1', iv, cipher.getAuthTag(), data].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.') };
    },
    open(stored) {
      const [version, iv, tag, data] = stored.body.split('.');
      if (version !== 'v1' || !data) return stored;
      const decipher = createDecipheriv('aes-256-gcm', secret, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return { ...stored, body: Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8') };
    },
  };
}

function digest(value: string): string {
  return createHash('sha256').update(value).digest('base64url');
}

function refuse(res: Response, status: number, message: string): void {
  res.status(status).json({ error: { code: status, message } });
}

function replay(res: Response, answer: StoredAnswer): void {
  for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
  res.setHeader('Idempotent-Replayed', 'true');
  res.status(answer.status).end(answer.body);
}

/**
 * Records what the handler sends. `settle` gets the answer before its last byte goes out, and the
 * answer waits for it: a client holding the answer must find it stored, not see its retry refused as
 * still in progress. `settle` gets null when the connection dropped before the handler answered.
 */
function capture(res: Response, settle: (answer: StoredAnswer | null) => Promise<unknown>): void {
  const chunks: Buffer[] = [];
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => Response;
  const keep = (chunk: unknown, encoding?: unknown) => {
    if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
    chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk), typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8'));
  };
  let settled = false;
  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    keep(chunk, rest[0]);
    return write(chunk, ...rest);
  }) as Response['write'];
  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    if (settled) return end(chunk, ...rest);
    settled = true;
    keep(chunk, rest[0]);
    const headers: Record<string, string> = {};
    for (const name of REPLAYED_HEADERS) {
      const value = res.getHeader(name);
      if (value !== undefined) headers[name] = String(value);
    }
    void settle({ status: res.statusCode, headers, body: Buffer.concat(chunks).toString('utf8') }).finally(() => end(chunk, ...rest));
    return res;
  }) as Response['end'];
  res.on('close', () => {
    if (!settled) {
      settled = true;
      void settle(null);
    }
  });
}
