import { InvalidError } from '@app/common';

/** Where a redirect sends readers (GitBook's `SiteRedirectDestination`). */
export type RedirectDestination =
  | { kind: 'external'; url: string }
  | { kind: 'site-section'; siteSectionId: string }
  | { kind: 'site-space'; siteSpaceId: string }
  | { kind: 'site-page'; siteSpaceId: string; pageId: string };

/** What a client may send: a destination, or a page named by its space and path (stored as `site-page`). */
export type RedirectInputDestination = RedirectDestination | { kind: 'path'; spaceId: string; path: string };

/**
 * GitBook's source path: `/` then segments of unreserved or percent-encoded characters, with an
 * optional trailing `*` (or `/*`) and no `*` anywhere else.
 */
const SOURCE = /^\/(?!\*)(?!.*\*.+)(?:[A-Za-z0-9\-._~+]|%[0-9A-Fa-f]{2})+(?:\/(?:[A-Za-z0-9\-._~+]|%[0-9A-Fa-f]{2})+)*(?:\/\*|\*)?$/;
const MAX_SOURCE = 512;
const MAX_URL = 2048;
const MAX_ID = 64;

export function parseSource(value: unknown, field = 'source'): string {
  if (typeof value !== 'string' || value.length > MAX_SOURCE || !SOURCE.test(value)) {
    throw new InvalidError(`${field}: a path such as "/old/page" or "/old/*" (at most ${MAX_SOURCE} characters; letters, digits, "-._~+", percent-escapes; "*" only at the end)`);
  }
  return value;
}

/** The part a wildcard source matches the start of; null for an exact source. */
export function wildcardPrefix(source: string): string | null {
  return source.endsWith('*') ? source.slice(0, -1) : null;
}

export function parseDestination(value: unknown, field = 'destination'): RedirectInputDestination {
  const object = value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  const id = (key: string) => {
    const v = object?.[key];
    if (typeof v !== 'string' || !v || v.length > MAX_ID) throw new InvalidError(`${field}.${key} is required`);
    return v;
  };
  switch (object?.kind) {
    case 'external': {
      const url = object.url;
      if (typeof url !== 'string' || url.length > MAX_URL || !isHttpUrl(url)) throw new InvalidError(`${field}.url must be an absolute http or https URL`);
      return { kind: 'external', url };
    }
    case 'site-section':
      return { kind: 'site-section', siteSectionId: id('siteSectionId') };
    case 'site-space':
      return { kind: 'site-space', siteSpaceId: id('siteSpaceId') };
    case 'site-page':
      return { kind: 'site-page', siteSpaceId: id('siteSpaceId'), pageId: id('pageId') };
    case 'path': {
      const path = object.path;
      if (typeof path !== 'string' || path.length > MAX_SOURCE) throw new InvalidError(`${field}.path is required`);
      return { kind: 'path', spaceId: id('spaceId'), path };
    }
    default:
      throw new InvalidError(`${field}.kind must be one of external, site-section, site-space, site-page, path`);
  }
}

/**
 * The redirect a reader's path meets: the one whose source is the path, else the wildcard source
 * with the longest prefix of it. `suffix`: what the wildcard matched.
 */
export function matchRedirect<R extends { source: string }>(redirects: readonly R[], path: string): { redirect: R; suffix: string } | null {
  const exact = redirects.find((redirect) => redirect.source === path);
  if (exact) return { redirect: exact, suffix: '' };
  let best: { redirect: R; suffix: string; length: number } | null = null;
  for (const redirect of redirects) {
    const prefix = wildcardPrefix(redirect.source);
    if (prefix === null || !path.startsWith(prefix) || (best && best.length >= prefix.length)) continue;
    best = { redirect, suffix: path.slice(prefix.length), length: prefix.length };
  }
  return best && { redirect: best.redirect, suffix: best.suffix };
}

/** The destination address with a captured suffix appended to its path (query and fragment kept). */
export function withSuffix(target: string, suffix: string): string {
  if (!suffix) return target;
  const url = new URL(target);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/${suffix.replace(/^\/+/, '')}`;
  return url.toString();
}

/** A reader's path under a site, as sources are written: leading `/`, no trailing `/` (but the root). */
export function readerPath(pathname: string): string {
  const trimmed = `/${pathname.replace(/^\/+/, '')}`.replace(/\/+$/, '');
  return trimmed || '/';
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password;
  } catch {
    return false;
  }
}
