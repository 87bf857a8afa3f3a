import { InvalidError } from '@app/common';
import { slugify } from '../../content/domain/markdown/slug';

export const SITE_TYPES = ['basic', 'premium', 'ultimate', 'sponsored', 'legacy-basic', 'legacy-premium'] as const;
export type SiteType = (typeof SITE_TYPES)[number];

export const SITE_VISIBILITIES = ['public', 'unlisted', 'share-link', 'visitor-auth'] as const;
export type SiteVisibility = (typeof SITE_VISIBILITIES)[number];

export const AGENTS_CONTEXTS = ['excluded', 'included'] as const;
export type AgentsContext = (typeof AGENTS_CONTEXTS)[number];

/** GitBook's patterns (SiteHostname, the proxy address of updateSiteById). */
export const HOSTNAME_PATTERN = /^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?[.]){2,}[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$/;
export const PROXY_PATTERN = /^([\w-]+\.)*[\w-]+\.[a-zA-Z]{2,}(\/[\w-]+)+$/;
/** A basename is one URL segment readers type: `/sites/{basename}/...`. */
export const BASENAME_PATTERN = /^[a-z0-9][a-z0-9_-]*$/;

export function assertTitle(value: unknown, field = 'title', min = 2, max = 128): string {
  if (typeof value !== 'string' || value.trim().length < min || value.length > max) {
    throw new InvalidError(`${field}: must be a string of ${min} to ${max} characters`);
  }
  return value;
}

/** An optional text field: a string of at most `max` characters, or null to clear it. */
export function optionalText(value: unknown, field: string, max: number): string | null {
  if (value === null) return null;
  if (typeof value !== 'string' || value.length > max) throw new InvalidError(`${field}: a string of at most ${max} characters, or null`);
  return value;
}

export function assertBasename(value: unknown): string {
  if (typeof value !== 'string' || value.length < 1 || value.length > 100 || !BASENAME_PATTERN.test(value)) {
    throw new InvalidError('basename: 1 to 100 lower-case letters, digits, "-" or "_", starting with a letter or digit');
  }
  return value;
}

/** The default path of a section or site space: its title as a URL segment, unique among its siblings. */
export function uniquePath(title: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  const base = (slugify(title) || 'content').slice(0, 90);
  let path = base;
  for (let n = 2; used.has(path); n++) path = `${base}-${n}`;
  return path;
}

/** Site paths are URL segments: letters, digits and `-_.`, as readers type them. */
export const PATH_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export function assertPath(value: unknown, field = 'path'): string {
  if (typeof value !== 'string' || value.length < 1 || value.length > 100 || !PATH_PATTERN.test(value)) {
    throw new InvalidError(`${field}: 1 to 100 characters (letters, digits, ".", "-", "_"), one URL segment`);
  }
  return value;
}

/** Which features a site of a type has, as GitBook lists them (all frozen: this server has no plans to change). */
export function siteFeatures(type: SiteType, adaptive: boolean): Array<{ id: string; plan: SiteType; frozen: boolean }> {
  const ids = ['sites-sections', 'sites-share-links', 'sites-visitor-authentication', 'sites-unlisted-visibility', 'sites-public-visibility', 'sites-full-text-search', 'sites-seo', 'sites-multivariant-site'];
  if (adaptive) ids.push('sites-adaptive-content');
  return ids.map((id) => ({ id, plan: type, frozen: false }));
}
