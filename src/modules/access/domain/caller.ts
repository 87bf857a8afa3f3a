/**
 * Who is asking. Tokens issued by an organization's SAML sign-in are limited to that
 * organization (`organizationScope`): elsewhere, the caller is treated as a stranger, so an
 * identity provider's admin cannot reach what its users see in other organizations. A site
 * token's reader is no user at all: it reads the spaces its site shows it (`siteScope`).
 */
export interface Caller {
  id: string;
  organizationScope?: string | null;
  /** A published site's reader: it may read the spaces its site shows it (`spaceIds`), nothing else. */
  siteScope?: { organizationId: string; spaceId: string; spaceIds: readonly string[] } | null;
  /** An integration installation's token: the spaces it is installed on, at the role its scopes give. */
  integrationScope?: { organizationId: string; scopes: readonly string[]; spaceIds: readonly string[] | 'all' } | null;
}
