import { InvalidError } from '@app/common';
import { assertExternalUrl } from './external-link';

export type McpTransport = 'sse' | 'http';

/** What a header's value shows as in answers: header values carry credentials and are stored sealed. */
export const MASKED_HEADER_VALUE = '********';
/** Most MCP servers one site's assistant may call. */
export const MAX_MCP_SERVERS_PER_SITE = 20;
const MAX_HEADERS = 20;
/** An HTTP token (RFC 9110), the names of headers a server may be sent. */
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/;
/** Set by the connection itself, never by a configuration. */
const RESERVED_HEADERS = new Set(['host', 'content-length', 'connection', 'transfer-encoding', 'keep-alive', 'upgrade', 'te', 'trailer', 'proxy-authorization', 'proxy-connection']);

export function assertMcpServerName(value: unknown): string {
  if (typeof value !== 'string' || !value.trim() || value.length > 100) throw new InvalidError('name: 1 to 100 characters');
  return value.trim();
}

/** The server's address: an absolute http(s) URL without credentials (those go in `headers`). */
export function assertMcpServerUrl(value: unknown): string {
  if (typeof value === 'string' && /^[a-z]+:\/\/[^/]*@/i.test(value)) throw new InvalidError('url: put credentials in headers, not in the address');
  return assertExternalUrl(value);
}

export function assertMcpTransport(value: unknown): McpTransport {
  if (value !== 'sse' && value !== 'http') throw new InvalidError('transport: "sse" or "http"');
  return value;
}

/**
 * Headers sent to the server: at most 20, names HTTP tokens other than those the connection sets,
 * values 1 to 512 characters without line breaks. A value given as the mask keeps the value stored
 * under that name (a client may send back what it read).
 */
export function assertMcpHeaders(value: unknown, stored: Record<string, string> = {}): Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new InvalidError('headers: an object of header names to values');
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > MAX_HEADERS) throw new InvalidError(`headers: at most ${MAX_HEADERS}`);
  const out: Record<string, string> = {};
  const seen = new Set<string>();
  for (const [name, raw] of entries) {
    if (!HEADER_NAME.test(name) || RESERVED_HEADERS.has(name.toLowerCase())) throw new InvalidError(`headers: "${name.slice(0, 100)}" is not a header a configuration may set`);
    if (seen.has(name.toLowerCase())) throw new InvalidError(`headers: "${name}" is given twice`);
    seen.add(name.toLowerCase());
    if (raw === MASKED_HEADER_VALUE && name in stored) {
      out[name] = stored[name];
      continue;
    }
    if (typeof raw !== 'string' || raw.length < 1 || raw.length > 512 || /[\r\n\0]/.test(raw)) throw new InvalidError(`headers: the value of "${name}" must be 1 to 512 characters on one line`);
    out[name] = raw;
  }
  return out;
}
