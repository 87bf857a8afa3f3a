import { OrgRole } from '../../access/domain/roles';

/** How long a visitor token returned by ping stays valid. Clients ping again to refresh it. */
export const VISITOR_CLAIMS_TTL_SECONDS = 15 * 60;

/**
 * The claims of the JWT that POST /orgs/{id}/ping returns, which the organization's sites accept
 * to authenticate the member as a visitor (`visitor-auth`). Signed with the organization's own
 * key, so a token of one organization is worthless on another's sites.
 */
export interface VisitorClaims {
  /** Issuer: the server's PUBLIC_URL. */
  iss: string;
  /** The member's user id. */
  sub: string;
  email: string;
  name: string;
  /** The organization the member belongs to (and whose key signed the token). */
  organization: string;
  /** The member's organization role; null for a guest. */
  role: OrgRole;
  /** Issued at and expiry, seconds since the epoch. */
  iat: number;
  exp: number;
}

export function visitorClaims(input: {
  issuer: string;
  user: { id: string; email: string; displayName: string };
  organizationId: string;
  role: OrgRole;
  now: Date;
}): VisitorClaims {
  const iat = Math.floor(input.now.getTime() / 1000);
  return {
    iss: input.issuer,
    sub: input.user.id,
    email: input.user.email,
    name: input.user.displayName,
    organization: input.organizationId,
    role: input.role,
    iat,
    exp: iat + VISITOR_CLAIMS_TTL_SECONDS,
  };
}
