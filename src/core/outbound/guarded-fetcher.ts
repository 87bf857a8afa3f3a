import { lookup as dnsLookup, LookupAddress } from 'node:dns';
import * as http from 'node:http';
import * as https from 'node:https';
import { isIP } from 'node:net';
import { Readable, Transform } from 'node:stream';
import { Inject, Injectable, Optional } from '@nestjs/common';
import { APP_CONFIG, AppConfig, InvalidError } from '@app/common';
import { isPublicAddress } from './address-policy';

export interface FetchedFile {
  bytes: Buffer;
  /** The response's Content-Type, without parameters; undefined when absent. */
  contentType?: string;
}

export interface HttpAnswer {
  status: number;
  headers: Record<string, string>;
  bytes: Buffer;
}

export interface FetchLimits {
  maxBytes: number;
  timeoutMs: number;
  maxRedirects: number;
  /**
   * `fetch` only: keep the first `maxBytes` of a larger answer instead of refusing it (for reading
   * a page's head, where the rest does not matter).
   */
  prefixOnly?: boolean;
}

export const DEFAULT_FETCH_LIMITS: FetchLimits = { maxBytes: 10 * 1024 * 1024, timeoutMs: 10_000, maxRedirects: 3 };

/** The source did not answer (or finish answering) within the time limit. */
export class FetchTimeoutError extends InvalidError {}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * The one way this server fetches from addresses users give it (file URLs today; git remotes
 * and OpenAPI sources later): http(s) only, public addresses only unless the operator allows
 * private ones (OUTBOUND_ALLOW_PRIVATE), checked on every address the name resolves to at
 * connection time (so DNS cannot swap in a private one afterwards), bounded redirects, time and
 * size. Failures are InvalidErrors (the caller says what was being fetched) whose messages never
 * carry DNS answers or system error text.
 */
@Injectable()
export class GuardedFetcher {
  constructor(@Optional() @Inject(APP_CONFIG) private readonly config?: AppConfig) {}

  /** The URL parsed and checked: http(s), and not a literal address the policy refuses. */
  private target(url: string): Target {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new InvalidError('not a valid URL');
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new InvalidError('only http and https URLs can be fetched');
    const host = parsed.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) && !this.allows(host)) throw new InvalidError(`"${host}" is a private or reserved address`);
    return { parsed, host, client: parsed.protocol === 'https:' ? https : http };
  }

  /** Whether a connection to this IP address is allowed. */
  protected allows(address: string): boolean {
    return this.config?.outboundAllowPrivate === true || isPublicAddress(address);
  }

  async fetch(url: string, limits: FetchLimits = DEFAULT_FETCH_LIMITS): Promise<FetchedFile> {
    let current = url;
    for (let redirects = 0; ; redirects++) {
      const outcome = await this.once(current, limits);
      if (outcome.kind === 'file') return outcome.file;
      if (redirects >= limits.maxRedirects) throw new InvalidError(`more than ${limits.maxRedirects} redirects`);
      current = new URL(outcome.location, current).toString();
    }
  }

  /**
   * One HTTP request whose answer is read as it comes (a stream that stays open, as an MCP server's
   * events): the same address policy, no redirect followed; `timeoutMs` bounds the wait for the
   * answer's head and every silence after it, `maxBytes` all that is read; `signal` ends it.
   */
  stream(url: string, init: { method: string; headers?: Record<string, string>; body?: string | Buffer; signal?: AbortSignal }, limits: { maxBytes: number; timeoutMs: number }): Promise<{ status: number; headers: Record<string, string>; body: Readable }> {
    let target: Target;
    try {
      target = this.target(url);
    } catch (error) {
      return Promise.reject(error);
    }
    const { parsed, host, client } = target;
    return new Promise((resolve, reject) => {
      let answered = false;
      const request = client.request(
        parsed,
        { method: init.method, headers: { 'user-agent': 'docs-platform-server', ...init.headers }, lookup: guardedLookup((address) => this.allows(address)) as never, timeout: limits.timeoutMs },
        (response) => {
          answered = true;
          // Counted as it passes (not with a 'data' listener of our own, which would start the flow before the reader is there).
          let size = 0;
          const counted = new Transform({
            transform(chunk: Buffer, _encoding, done) {
              size += chunk.length;
              done(size > limits.maxBytes ? new InvalidError(`the answer is larger than ${limits.maxBytes} bytes`) : null, chunk);
            },
          });
          response.on('error', (error) => counted.destroy(error));
          // The reader learns of a failure from the stream itself; it may not be attached yet when one comes.
          counted.on('error', () => undefined);
          counted.on('close', () => request.destroy());
          response.pipe(counted);
          const headers: Record<string, string> = {};
          for (const [name, value] of Object.entries(response.headers)) if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
          resolve({ status: response.statusCode ?? 0, headers, body: counted });
        },
      );
      request.on('error', (error) => {
        if (!answered) reject(error instanceof InvalidError ? error : unreachable(host));
      });
      // The socket's idle timeout: no head, or a silence, this long ends the request.
      request.on('timeout', () => request.destroy(new FetchTimeoutError(`nothing received within ${limits.timeoutMs} ms`)));
      if (init.signal) {
        if (init.signal.aborted) request.destroy();
        else init.signal.addEventListener('abort', () => request.destroy(), { once: true });
      }
      request.end(init.body);
    });
  }

  /**
   * One HTTP request of any method (for APIs the server calls, e.g. a language model): the same
   * address policy, time and size limits, but the answer is returned whatever its status, and a
   * redirect is not followed.
   */
  request(url: string, init: { method: string; headers?: Record<string, string>; body?: string | Buffer }, limits: FetchLimits): Promise<HttpAnswer> {
    let target: Target;
    try {
      target = this.target(url);
    } catch (error) {
      return Promise.reject(error);
    }
    const { parsed, host, client } = target;
    return new Promise((resolve, reject) => {
      let settled = false;
      const fail = (error: Error) => {
        if (settled) return;
        settled = true;
        reject(error instanceof InvalidError ? error : unreachable(host));
      };
      const request = client.request(
        parsed,
        { method: init.method, headers: { 'user-agent': 'docs-platform-server', ...init.headers }, lookup: guardedLookup((address) => this.allows(address)) as never, timeout: limits.timeoutMs },
        (response) => {
          const chunks: Buffer[] = [];
          let size = 0;
          response.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > limits.maxBytes) {
              response.destroy();
              fail(new InvalidError(`the answer is larger than ${limits.maxBytes} bytes`));
              return;
            }
            chunks.push(chunk);
          });
          response.on('end', () => {
            if (settled) return;
            settled = true;
            const headers: Record<string, string> = {};
            for (const [name, value] of Object.entries(response.headers)) if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
            resolve({ status: response.statusCode ?? 0, headers, bytes: Buffer.concat(chunks) });
          });
          response.on('error', fail);
        },
      );
      request.on('error', fail);
      bound(request, limits.timeoutMs);
      request.end(init.body);
    });
  }

  private once(url: string, limits: FetchLimits): Promise<{ kind: 'file'; file: FetchedFile } | { kind: 'redirect'; location: string }> {
    let target: Target;
    try {
      target = this.target(url);
    } catch (error) {
      return Promise.reject(error);
    }
    const { parsed, host, client } = target;

    return new Promise((resolve, reject) => {
      let settled = false;
      const fail = (error: Error) => {
        if (settled) return;
        settled = true;
        reject(error instanceof InvalidError ? error : unreachable(host));
      };
      const request = client.get(
        parsed,
        { lookup: guardedLookup((address) => this.allows(address)) as never, timeout: limits.timeoutMs, headers: { 'user-agent': 'docs-platform-server', accept: '*/*' } },
        (response) => {
          const status = response.statusCode ?? 0;
          if (status >= 300 && status < 400 && response.headers.location) {
            response.resume();
            settled = true;
            resolve({ kind: 'redirect', location: response.headers.location });
            return;
          }
          if (status !== 200) {
            response.resume();
            fail(new InvalidError(`fetching the file answered HTTP ${status}`));
            return;
          }
          const declared = Number(response.headers['content-length']);
          if (!limits.prefixOnly && Number.isFinite(declared) && declared > limits.maxBytes) {
            response.destroy();
            fail(new InvalidError(`the file is larger than ${limits.maxBytes} bytes`));
            return;
          }
          const chunks: Buffer[] = [];
          let size = 0;
          const finish = () => {
            if (settled) return;
            settled = true;
            const type = response.headers['content-type']?.split(';')[0].trim();
            resolve({ kind: 'file', file: { bytes: Buffer.concat(chunks), ...(type ? { contentType: type } : {}) } });
          };
          response.on('data', (chunk: Buffer) => {
            if (size + chunk.length > limits.maxBytes && limits.prefixOnly) {
              chunks.push(chunk.subarray(0, limits.maxBytes - size));
              size = limits.maxBytes;
              finish();
              response.destroy();
              return;
            }
            size += chunk.length;
            if (size > limits.maxBytes) {
              response.destroy();
              fail(new InvalidError(`the file is larger than ${limits.maxBytes} bytes`));
              return;
            }
            chunks.push(chunk);
          });
          response.on('end', finish);
          response.on('error', fail);
        },
      );
      request.on('error', fail);
      bound(request, limits.timeoutMs);
    });
  }
}

interface Target {
  parsed: URL;
  host: string;
  client: typeof http | typeof https;
}

/** Socket inactivity and an overall deadline (slow bodies) both end the request with a FetchTimeoutError. */
function bound(request: http.ClientRequest, timeoutMs: number): void {
  request.on('timeout', () => request.destroy(new FetchTimeoutError(`no answer within ${timeoutMs} ms`)));
  const deadline = setTimeout(() => request.destroy(new FetchTimeoutError(`not fetched within ${timeoutMs} ms`)), timeoutMs);
  deadline.unref();
  request.on('close', () => clearTimeout(deadline));
}

/**
 * One answer for every failure below HTTP (no such name, a name resolving to a refused address,
 * connection refused or reset, TLS errors). The system's message would echo DNS answers and
 * internal addresses (`getaddrinfo ENOTFOUND ...`, `connect ECONNREFUSED 10.0.0.5:80`), and
 * telling "resolves to a private address" apart from "does not resolve" would let a caller map
 * the server's internal DNS; the host named is the one the caller gave.
 */
function unreachable(host: string): InvalidError {
  return new InvalidError(`could not connect to "${host}" (it does not resolve, refused the connection, or is not an allowed address)`);
}

/** dns.lookup that refuses names resolving to any address `allows` refuses. */
function guardedLookup(allows: (address: string) => boolean) {
  return (hostname: string, options: { all?: boolean; family?: number } | number, callback: LookupCallback): void => {
    const opts = typeof options === 'number' ? { family: options } : (options ?? {});
    dnsLookup(hostname, { family: opts.family ?? 0, all: true }, (error, addresses) => {
      if (error) return callback(error, '');
      const list = addresses as LookupAddress[];
      if (list.length === 0 || list.some((entry) => !allows(entry.address))) {
        return callback(Object.assign(unreachable(hostname), { code: 'EBLOCKED' }) as never, '');
      }
      if (opts.all) return callback(null, list);
      callback(null, list[0].address, list[0].family);
    });
  };
}
