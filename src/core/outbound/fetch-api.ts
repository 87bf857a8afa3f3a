import { Readable } from 'node:stream';
import { GuardedFetcher } from './guarded-fetcher';

/** The `fetch` signature libraries take (the model client, the MCP client). */
export type FetchApi = (url: string | URL | Request, init?: RequestInit) => Promise<Response>;

/**
 * A `fetch` for libraries that take one, going through the guarded fetcher (outbound policy,
 * size and time limits, no redirects unless allowed): answers are read whole, so it suits
 * request/response exchanges only. `refuseGet` answers GETs with 405 without sending them (an MCP
 * client's optional stream of server-initiated messages, which we do not use and would never end).
 */
export function guardedFetchApi(fetcher: GuardedFetcher, limits: { maxBytes: number; timeoutMs: number; maxRedirects?: number }, options: { refuseGet?: boolean } = {}): FetchApi {
  return async (url, init = {}) => {
    const method = (init.method ?? (url instanceof Request ? url.method : 'GET')).toUpperCase();
    if (options.refuseGet && method === 'GET') return new Response(null, { status: 405 });
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, name) => (headers[name] = value));
    const body = typeof init.body === 'string' ? init.body : init.body ? Buffer.from(await new Response(init.body).arrayBuffer()) : undefined;
    const answer = await fetcher.request(String(url instanceof Request ? url.url : url), { method, headers, body }, { maxBytes: limits.maxBytes, timeoutMs: limits.timeoutMs, maxRedirects: limits.maxRedirects ?? 0 });
    return new Response(answer.status === 204 || answer.status === 205 || answer.status === 304 ? null : new Uint8Array(answer.bytes), { status: answer.status, headers: answer.headers });
  };
}

/**
 * A `fetch` whose answers stream (an MCP server's server-sent events), through the guarded
 * fetcher's `stream`: `timeoutMs` bounds each silence, `maxBytes` the whole answer.
 */
export function guardedStreamingFetchApi(fetcher: GuardedFetcher, limits: { maxBytes: number; timeoutMs: number }): FetchApi {
  return async (url, init = {}) => {
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, name) => (headers[name] = value));
    const body = typeof init.body === 'string' ? init.body : init.body ? Buffer.from(await new Response(init.body).arrayBuffer()) : undefined;
    const answer = await fetcher.stream(String(url instanceof Request ? url.url : url), { method: (init.method ?? 'GET').toUpperCase(), headers, body, signal: init.signal ?? undefined }, limits);
    // An answer that broke a limit before anyone read it fails here rather than as an empty stream.
    if (answer.body.errored) throw answer.body.errored;
    const stream = answer.status === 204 || answer.status === 205 || answer.status === 304 ? null : (Readable.toWeb(answer.body) as ReadableStream<Uint8Array>);
    if (!stream) answer.body.resume();
    return new Response(stream, { status: answer.status, headers: answer.headers });
  };
}
