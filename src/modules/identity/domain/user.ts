import { InvalidError } from '@app/common';

export interface User {
  id: string;
  email: string;
  displayName: string;
  photoUrl: string | null;
  emailVerified: boolean;
  createdAt: Date;
  /** Set by an operator (`users:disable`): the user's tokens answer 401 from then on. */
  disabledAt?: Date | null;
  /** May use the operator's console (/admin). Never part of the API's User object. */
  instanceAdmin?: boolean;
  /** On the caller only: the one organization its token may act in (SAML sign-in tokens). */
  organizationScope?: string | null;
  /** On the caller only, for a published site's reader token: the one space it may read. */
  siteScope?: SiteScope | null;
  /** On the caller only, for an integration installation's token: what the installation reaches. */
  integrationScope?: IntegrationGrant | null;
}

/** What an installation token lets the integration do: its scopes, on the targets it is installed on. */
export interface IntegrationGrant {
  integration: string;
  installationId: string;
  organizationId: string;
  scopes: readonly string[];
  /** `all` when the installation covers every space (or site) of the organization. */
  spaceIds: readonly string[] | 'all';
  siteIds: readonly string[] | 'all';
}

/** What a site token (the `apiToken` of published-site resolution) lets its bearer read. */
export interface SiteScope {
  siteId: string;
  organizationId: string;
  /** The space of the address the token was issued for. */
  spaceId: string;
  /** Every space of the site the reader sees (its conditions read against the claims below), `spaceId` among them. */
  spaceIds: readonly string[];
  /** The reader's claims when the token was issued (visitor-auth sites; `unsigned` from the address). */
  claims: Record<string, unknown> & { unsigned: Record<string, unknown> };
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** E-mail addresses are compared case-insensitively, so they are kept lower-cased. */
export function normalizeEmail(email: string): string {
  const normalized = email.trim().toLowerCase();
  if (!EMAIL.test(normalized) || normalized.length > 320) throw new InvalidError(`Invalid e-mail address "${email}"`);
  return normalized;
}

export function emailDomain(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1);
}

/** Trimmed; `max` is 255 for accounts the operator creates, 64 for the users' own edits (GitBook's limit). */
export function validateDisplayName(name: string, max = 255): string {
  const trimmed = name.trim();
  if (trimmed.length < 1 || trimmed.length > max) throw new InvalidError(`Display name must be 1 to ${max} characters`);
  return trimmed;
}
