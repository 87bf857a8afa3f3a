/**
 * Who is asking. Tokens issued by an organization's SAML sign-in are limited to that
 * organization (`organizationScope`): elsewhere, the caller is treated as a stranger, so an
 * identity provider's admin cannot reach what its users see in other organizations.
 */
export interface Caller {
  id: string;
  organizationScope?: string | null;
}
