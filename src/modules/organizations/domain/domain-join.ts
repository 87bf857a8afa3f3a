import { ForbiddenError, InvalidError, NotFoundError } from '@app/common';
import { Organization } from './organization';

/** What joining by e-mail domain needs to know about the caller. */
export interface Joiner {
  email: string;
  emailVerified: boolean;
}

/** The domain of an address, lower-cased (`Ada@Example.COM` -> `example.com`). */
export function domainOf(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1).trim().toLowerCase();
}

/**
 * The caller's verified e-mail domain, or null when their address is not verified: an
 * unverified address proves nothing about who the caller works for.
 */
export function verifiedDomain(joiner: Joiner): string | null {
  return joiner.emailVerified ? domainOf(joiner.email) : null;
}

/**
 * POST /orgs/{id}/join. A caller whose e-mail domain is not exactly one of the organization's
 * `emailDomains` (no subdomain matching) is an outsider: they get the same 404 as for an
 * organization that does not exist, so joining reveals nothing about which organizations exist.
 * A caller of a listed domain learns more: an unverified address is a 400, and an organization
 * enforcing SSO a 403.
 */
export function assertMayJoinByDomain(organization: Organization, joiner: Joiner): void {
  const domain = domainOf(joiner.email);
  if (!organization.emailDomains.includes(domain)) throw NotFoundError.of('Organization', organization.id);
  if (!joiner.emailVerified) {
    throw new InvalidError('Your e-mail address is not verified; joining an organization by e-mail domain requires a verified address');
  }
  if (organization.sso) {
    throw new ForbiddenError('This organization enforces single sign-on: join it through its identity provider');
  }
}

/**
 * GET /email-domains/{domain}/orgs lists organizations only to callers who could join them by
 * that domain: the domain asked about must be the caller's own verified domain. Anyone else gets
 * an empty list, which says nothing about whether such organizations exist.
 */
export function mayListOrganizationsOfDomain(joiner: Joiner, domain: string): boolean {
  const own = verifiedDomain(joiner);
  return own !== null && own === domain.trim().toLowerCase();
}
