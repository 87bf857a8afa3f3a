import { X509Certificate } from 'node:crypto';
import { ConflictError, InvalidError } from '@app/common';
import { OrgRole } from '../../access/domain/roles';

/**
 * A SAML identity provider (IdP) an organization signs its members in with. This server is the
 * service provider (SP). A provider is `active` once it knows where to send users (`ssoUrl`) and
 * how to check what comes back (`certificate`); until then it is `pending` and cannot be used.
 */
export type SamlProviderStatus = 'active' | 'pending';

export interface SamlProvider {
  id: string;
  organizationId: string;
  label: string;
  /** The IdP's entity id; when not empty, the assertion's Issuer must equal it. */
  entityId: string;
  /** Where the IdP receives AuthnRequests (HTTP-Redirect binding). */
  ssoUrl: string | null;
  /** The IdP's signing certificate, as PEM. */
  certificate: string | null;
  /** Team new members join; null when none (or when it was deleted). */
  defaultTeamId: string | null;
  /** Role of members who join by signing in; null makes them guests. */
  defaultRole: OrgRole;
  status: SamlProviderStatus;
  createdAt: Date;
}

/** What an admin may set, as validated by the DTO; absent fields stay as they are. */
export interface SamlProviderInput {
  label?: string;
  entityID?: string;
  certificate?: string;
  ssoURL?: string;
  /** null clears the default team. Whether it is a team of the organization is checked by the use case. */
  defaultTeam?: string | null;
  defaultRole?: OrgRole;
}

export const SAML_LABEL_MAX = 30;
export const SAML_ENTITY_ID_MAX = 1024;
export const SAML_CERTIFICATE_MAX = 10000;
export const SAML_URL_MAX = 2048;
/** Bounds GET /orgs/{id}/sso, which the contract does not paginate. */
export const SAML_PROVIDERS_PER_ORGANIZATION_MAX = 100;
/** Role of members who join through a provider created without `defaultRole` (the organization default's default). */
export const SAML_DEFAULT_ROLE: OrgRole = 'read';

export function validateLabel(label: string): string {
  const trimmed = label.trim();
  if (trimmed.length < 1 || trimmed.length > SAML_LABEL_MAX) {
    throw new InvalidError(`label: must be 1 to ${SAML_LABEL_MAX} characters`);
  }
  return trimmed;
}

export function validateEntityId(entityId: string): string {
  const trimmed = entityId.trim();
  if (trimmed.length > SAML_ENTITY_ID_MAX) throw new InvalidError(`entityID: must be at most ${SAML_ENTITY_ID_MAX} characters`);
  return trimmed;
}

/** Users are sent there by their browser: only absolute http(s) URLs (no `javascript:` and the like). */
export function validateSsoUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new InvalidError('ssoURL: must be an absolute http(s) URL');
  }
  if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || url.length > SAML_URL_MAX) {
    throw new InvalidError(`ssoURL: must be an absolute http(s) URL of at most ${SAML_URL_MAX} characters`);
  }
  return url;
}

const PEM_CERTIFICATE = /^-----BEGIN CERTIFICATE-----([A-Za-z0-9+/=\s]+)-----END CERTIFICATE-----$/;
const BASE64_BODY = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * An X.509 certificate given as PEM or as its bare base64 body (as IdP metadata shows it),
 * returned as PEM. Anything that does not parse as exactly one certificate is a 400.
 */
export function normalizeCertificate(text: string): string {
  const trimmed = text.trim();
  const body = (PEM_CERTIFICATE.exec(trimmed)?.[1] ?? trimmed).replace(/\s+/g, '');
  let certificate: X509Certificate;
  try {
    if (!BASE64_BODY.test(body)) throw new Error('not base64');
    certificate = new X509Certificate(Buffer.from(body, 'base64'));
  } catch {
    throw new InvalidError('certificate: must be an X.509 certificate, PEM or its base64 body');
  }
  const pem = certificate.toString().trim();
  if (pem.length > SAML_CERTIFICATE_MAX) {
    throw new InvalidError(`certificate: must be at most ${SAML_CERTIFICATE_MAX} characters as PEM`);
  }
  return pem;
}

export function statusOf(provider: Pick<SamlProvider, 'ssoUrl' | 'certificate'>): SamlProviderStatus {
  return provider.ssoUrl && provider.certificate ? 'active' : 'pending';
}

export function newSamlProvider(id: string, organizationId: string, input: SamlProviderInput & { label: string }, now: Date): SamlProvider {
  const base: SamlProvider = {
    id,
    organizationId,
    label: validateLabel(input.label),
    entityId: '',
    ssoUrl: null,
    certificate: null,
    defaultTeamId: null,
    defaultRole: SAML_DEFAULT_ROLE,
    status: 'pending',
    createdAt: now,
  };
  return applySamlProviderInput(base, input);
}

/** The provider with the input applied, every field validated and the status recomputed; the input provider is not modified. */
export function applySamlProviderInput(provider: SamlProvider, input: SamlProviderInput): SamlProvider {
  const next: SamlProvider = { ...provider };
  if (input.label !== undefined) next.label = validateLabel(input.label);
  if (input.entityID !== undefined) next.entityId = validateEntityId(input.entityID);
  if (input.ssoURL !== undefined) next.ssoUrl = validateSsoUrl(input.ssoURL);
  if (input.certificate !== undefined) next.certificate = normalizeCertificate(input.certificate);
  if (input.defaultTeam !== undefined) next.defaultTeamId = input.defaultTeam;
  if (input.defaultRole !== undefined) next.defaultRole = input.defaultRole;
  next.status = statusOf(next);
  return next;
}

/** Signing in needs a configured provider. */
export function assertActive(provider: SamlProvider): asserts provider is SamlProvider & { ssoUrl: string; certificate: string } {
  if (provider.status !== 'active' || !provider.ssoUrl || !provider.certificate) {
    throw new ConflictError(`SAML provider "${provider.id}" is not fully configured yet (it needs ssoURL and certificate)`);
  }
}

/** The service provider side of a provider: where the IdP sends users back and who we are to it. */
export interface SamlServiceEndpoints {
  startURL: string;
  acsURL: string;
  /** Our entity id for this provider: the audience its assertions must name. Resolves to our SP metadata. */
  entityID: string;
}

/** Outside `/v1`: browsers follow these without a bearer token. `base` is PUBLIC_URL. */
export function serviceEndpoints(base: string, providerId: string): SamlServiceEndpoints {
  const root = `${base.replace(/\/+$/, '')}/sso/saml/${encodeURIComponent(providerId)}`;
  return { startURL: `${root}/start`, acsURL: `${root}/acs`, entityID: `${root}/metadata` };
}
