import { InvalidError } from '@app/common';
import { OrgRole } from '../../access/domain/roles';
import { MergeRules } from './merge-rules';

export type { MergeRules } from './merge-rules';

export interface DefaultContent {
  type: 'site';
  site: string;
}

export interface Organization {
  id: string;
  title: string;
  createdAt: Date;
  emailDomains: string[];
  hostname: string | null;
  type: string;
  useCase: string | null;
  communityType: string | null;
  defaultRole: OrgRole;
  defaultContent: DefaultContent | null;
  sso: boolean;
  ai: boolean;
  inviteLinks: boolean;
  plan: string;
  mergeRules: MergeRules;
  logoUrl: string | null;
}

/**
 * A change an admin asks for. Absent fields stay as they are; `null` clears the nullable ones.
 * `mergeRules` must already be parsed (parseMergeRules); checks that need other data (hostname
 * taken, reviewers being members, the default site existing) are made by the use case.
 */
export interface OrganizationPatch {
  title?: string;
  emailDomains?: string[];
  hostname?: string;
  defaultRole?: OrgRole;
  defaultContent?: DefaultContent | null;
  logo?: string | null;
  sso?: boolean;
  ai?: boolean;
  inviteLinks?: boolean;
  mergeRules?: MergeRules;
}

export function validateTitle(title: string): string {
  const trimmed = title.trim();
  if (trimmed.length < 2 || trimmed.length > 255) throw new InvalidError('title: must be 2 to 255 characters');
  return trimmed;
}

const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

export function normalizeEmailDomains(domains: string[]): string[] {
  const normalized = domains.map((d) => d.trim().toLowerCase());
  for (const domain of normalized) {
    if (!DOMAIN.test(domain)) throw new InvalidError(`emailDomains: "${domain}" is not a valid domain`);
  }
  return [...new Set(normalized)];
}

/**
 * The organization's default hostname (`<hostname>.gitbook.io`): one DNS label of 3 to 32
 * characters, lower-case letters, digits and inner hyphens (the contract's subdomain pattern;
 * `OrganizationHostname` itself only bounds the length). Compared case-insensitively.
 */
export const HOSTNAME_PATTERN = /^[a-z0-9][a-z0-9-]{1,30}[a-z0-9]$/;

export function normalizeHostname(hostname: string): string {
  const normalized = hostname.toLowerCase();
  if (!HOSTNAME_PATTERN.test(normalized)) {
    throw new InvalidError('hostname: must be 3 to 32 letters, digits or inner hyphens (pattern ^[a-z0-9][a-z0-9-]{1,30}[a-z0-9]$)');
  }
  return normalized;
}

export function validateLogoUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new InvalidError('logo: must be an absolute http(s) URL');
  }
  if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || url.length > 2048) {
    throw new InvalidError('logo: must be an absolute http(s) URL of at most 2048 characters');
  }
  return url;
}

export function newOrganization(id: string, title: string, now: Date, emailDomains: string[] = []): Organization {
  return {
    id,
    title: validateTitle(title),
    createdAt: now,
    emailDomains: normalizeEmailDomains(emailDomains),
    hostname: null,
    type: 'business',
    useCase: null,
    communityType: null,
    defaultRole: 'read',
    defaultContent: null,
    sso: false,
    ai: false,
    inviteLinks: false,
    plan: 'free_2024',
    mergeRules: { type: 'none' },
    logoUrl: null,
  };
}

/** The organization with the patch applied, every field validated; the input is not modified. */
export function applyPatch(organization: Organization, patch: OrganizationPatch): Organization {
  const next: Organization = { ...organization };
  if (patch.title !== undefined) next.title = validateTitle(patch.title);
  if (patch.emailDomains !== undefined) next.emailDomains = normalizeEmailDomains(patch.emailDomains);
  if (patch.hostname !== undefined) next.hostname = normalizeHostname(patch.hostname);
  if (patch.defaultRole !== undefined) next.defaultRole = patch.defaultRole;
  if (patch.defaultContent !== undefined) next.defaultContent = patch.defaultContent;
  if (patch.logo !== undefined) next.logoUrl = patch.logo === null ? null : validateLogoUrl(patch.logo);
  if (patch.sso !== undefined) next.sso = patch.sso;
  if (patch.ai !== undefined) next.ai = patch.ai;
  if (patch.inviteLinks !== undefined) next.inviteLinks = patch.inviteLinks;
  if (patch.mergeRules !== undefined) next.mergeRules = patch.mergeRules;
  return next;
}
