import { InvalidError } from '@app/common';
import { OrgRole } from '../../access/domain/roles';

export interface MergeRules {
  type: 'none' | 'rules';
  rules?: { rule: string; users?: string[]; expression?: unknown }[];
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
  defaultContent: { type: 'site'; site: string } | null;
  sso: boolean;
  ai: boolean;
  inviteLinks: boolean;
  plan: string;
  mergeRules: MergeRules;
  logoUrl: string | null;
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
