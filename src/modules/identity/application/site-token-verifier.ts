import type { User } from '../domain/user';

/**
 * Verifies a published site's reader token (the `apiToken` that resolving a published address
 * hands out): the caller it stands for, limited to reading the one space it names, or null when
 * the token is invalid, expired, or its site or space no longer publishes it. The sites module
 * provides it; identity only knows the port, so neither module imports the other.
 */
export abstract class SiteTokenVerifier {
  abstract verify(token: string): Promise<User | null>;
}

/** Site tokens are compact JWTs; API tokens are opaque strings with no dots. */
export function looksLikeSiteToken(token: string): boolean {
  return /^eyJ[\w-]*\.[\w-]+\.[\w-]+$/.test(token);
}
