// The cookies a published site keeps for its visitor: the verified token and the unsigned claims
// given in the address, each per site, for as long as the token lives.

export const VISITOR_COOKIE = 'docs-visitor-token';
export const CLAIMS_COOKIE = 'docs-visitor-claims';

/** The unsigned claims a visitor's cookie holds (an object), or none when it holds anything else. */
export function parseClaimsCookie(value: string | undefined): Record<string, unknown> {
  if (!value) return {};
  try {
    const parsed: unknown = JSON.parse(value);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** When a verified visitor token expires (ms), null without one or without `exp`. */
export function tokenExpiry(token: string | undefined): number | null {
  if (!token) return null;
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as { exp?: number };
    return typeof payload.exp === 'number' ? payload.exp * 1000 : null;
  } catch {
    return null;
  }
}

/** The cookie lives as long as the token: its `exp`, at least a minute, a week when it has none. */
export function tokenMaxAge(token: string): number {
  const expiry = tokenExpiry(token);
  return expiry === null ? 7 * 86400 : Math.max(60, Math.floor((expiry - Date.now()) / 1000));
}

/** A cookie for the site's path, out of scripts' reach, Secure on https. */
export function cookie(name: string, value: string, path: string, maxAge: number, url: URL): string {
  return `${name}=${encodeURIComponent(value)}; Path=${path}; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${url.protocol === 'https:' ? '; Secure' : ''}`;
}
