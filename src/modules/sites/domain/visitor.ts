import { UnauthenticatedError } from '@app/common';

/** What a reader brings: a JWT (visitor-auth, or signed claims for adaptive content) and unsigned claims. */
export interface VisitorInput {
  jwtToken?: string;
  unsignedClaims?: Record<string, unknown>;
}

/** A visitor-auth site refused the reader: no token, or one that is expired or not signed with the site's key. */
export class VisitorAuthRequiredError extends UnauthenticatedError {
  constructor(
    message: string,
    /** Where the site sends readers to sign in (its publishing auth fallback URL), when it has one. */
    readonly loginUrl: string | null,
  ) {
    super(message);
  }
}

/** JWT registered claims: they describe the token, not the visitor. */
const REGISTERED = new Set(['exp', 'iat', 'nbf', 'iss', 'aud', 'jti']);

export function visitorClaims(payload: Record<string, unknown> | null, unsigned: Record<string, unknown>): Record<string, unknown> & { unsigned: Record<string, unknown> } {
  const claims: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(payload ?? {})) if (!REGISTERED.has(key) && key !== 'unsigned') claims[key] = value;
  return { ...claims, unsigned };
}
