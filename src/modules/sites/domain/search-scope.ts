import { InvalidError } from '@app/common';

/**
 * Which site spaces a site search covers (GitBook's `SiteSearchScope`): `all` of them; the `default`
 * site space of each section (or of the root), with `currentSiteSpace` always in and, when its space
 * has a language, the site space of that language in each other section instead of the default
 * (`restrictTo` then keeps only the current site space, or only the others: GitBook's renderer asks
 * for both halves at once and shows the first as soon as it comes); or the `specific` ones named.
 */
export type SiteSearchScope =
  | { mode: 'all' }
  | { mode: 'default'; currentSiteSpace?: string; restrictTo?: 'currentSiteSpace' | 'otherSiteSpaces' }
  /** `field`: what the request called them, for messages (`siteSpaceIds` unless said). */
  | { mode: 'specific'; siteSpaceIds: string[]; field?: string };

const RESTRICTIONS = ['currentSiteSpace', 'otherSiteSpaces'] as const;

export interface ScopedSiteSpace {
  id: string;
  sectionId: string | null;
  spaceId: string;
  isDefault: boolean;
}

/**
 * The request body's scope: `scope`, or one of the deprecated top-level forms GitBook still accepts
 * (`siteSpaceIds` with an optional `mode: 'specific'`, `mode: 'current'` with `siteSpaceId`, `mode: 'all'`);
 * none of them is the `default` scope.
 */
export function searchScopeOf(body: { scope?: unknown; mode?: unknown; siteSpaceIds?: unknown; siteSpaceId?: unknown }): SiteSearchScope {
  if (body.scope !== undefined) {
    if (body.mode !== undefined || body.siteSpaceIds !== undefined || body.siteSpaceId !== undefined) {
      throw new InvalidError('scope: give either scope or the deprecated mode, siteSpaceIds and siteSpaceId, not both');
    }
    return parseScope(body.scope);
  }
  if (body.siteSpaceIds !== undefined && (body.mode === undefined || body.mode === 'specific')) {
    return { mode: 'specific', siteSpaceIds: ids(body.siteSpaceIds, 'siteSpaceIds') };
  }
  if (body.mode === 'current') {
    if (typeof body.siteSpaceId !== 'string' || !body.siteSpaceId) throw new InvalidError('siteSpaceId: required with mode "current"');
    return { mode: 'default', currentSiteSpace: body.siteSpaceId };
  }
  if (body.mode === 'all' && body.siteSpaceIds === undefined) return { mode: 'all' };
  // GitBook's contract wants a scope; without one, what a reader sees first: each section's default.
  if (body.mode === undefined && body.siteSpaceIds === undefined && body.siteSpaceId === undefined) return { mode: 'default' };
  throw new InvalidError('scope: an object with mode "default", "specific" (with siteSpaceIds) or "all"');
}

function parseScope(scope: unknown): SiteSearchScope {
  if (typeof scope !== 'object' || scope === null || Array.isArray(scope)) throw new InvalidError('scope: an object with a mode');
  const { mode, currentSiteSpace, siteSpaceIds, restrictTo, ...rest } = scope as Record<string, unknown>;
  const extra = Object.keys(rest)[0];
  if (extra) throw new InvalidError(`scope.${extra}: not a property of a search scope`);
  if (restrictTo !== undefined && (mode !== 'default' || currentSiteSpace === undefined)) throw new InvalidError('scope.restrictTo: only with mode "default" and currentSiteSpace');
  if (mode === 'all' && currentSiteSpace === undefined && siteSpaceIds === undefined) return { mode };
  if (mode === 'specific' && currentSiteSpace === undefined) return { mode, siteSpaceIds: ids(siteSpaceIds, 'scope.siteSpaceIds') };
  if (mode === 'default' && siteSpaceIds === undefined) {
    if (currentSiteSpace === undefined) return { mode };
    if (typeof currentSiteSpace !== 'string' || !currentSiteSpace) throw new InvalidError('scope.currentSiteSpace: a site space id');
    if (restrictTo === undefined) return { mode, currentSiteSpace };
    if (!RESTRICTIONS.includes(restrictTo as (typeof RESTRICTIONS)[number])) throw new InvalidError(`scope.restrictTo: one of ${RESTRICTIONS.join(', ')}`);
    return { mode, currentSiteSpace, restrictTo: restrictTo as (typeof RESTRICTIONS)[number] };
  }
  if (mode !== 'all' && mode !== 'default' && mode !== 'specific') throw new InvalidError('scope.mode: one of default, specific, all');
  throw new InvalidError(`scope: mode "${mode}" takes ${mode === 'specific' ? 'siteSpaceIds' : mode === 'default' ? 'currentSiteSpace' : 'nothing else'}`);
}

const MAX_IDS = 1000;

function ids(value: unknown, field: string): string[] {
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_IDS || !value.every((id) => typeof id === 'string' && id)) {
    throw new InvalidError(`${field}: an array of 1 to ${MAX_IDS} site space ids`);
  }
  return [...new Set(value as string[])];
}

/**
 * The spaces a scope covers, in site order. Naming a site space the site does not have is bad
 * input (400), whoever's it is. `languageOf` gives a space's language (null when it has none).
 */
export function spacesInScope(siteSpaces: ScopedSiteSpace[], scope: SiteSearchScope, languageOf: (spaceId: string) => string | null): string[] {
  const byId = new Map(siteSpaces.map((s) => [s.id, s]));
  const known = (id: string, field: string) => {
    const siteSpace = byId.get(id);
    if (!siteSpace) throw new InvalidError(`${field}: the site has no site space ${id}`);
    return siteSpace;
  };
  let chosen: ScopedSiteSpace[];
  if (scope.mode === 'all') chosen = siteSpaces;
  else if (scope.mode === 'specific') chosen = scope.siteSpaceIds.map((id) => known(id, scope.field ?? 'siteSpaceIds'));
  else {
    const current = scope.currentSiteSpace === undefined ? null : known(scope.currentSiteSpace, 'currentSiteSpace');
    const language = current ? languageOf(current.spaceId) : null;
    const sections = new Map<string | null, ScopedSiteSpace[]>();
    for (const s of siteSpaces) sections.set(s.sectionId, [...(sections.get(s.sectionId) ?? []), s]);
    chosen = [...sections.entries()].flatMap(([sectionId, variants]) => {
      if (current && current.sectionId === sectionId) return [current];
      const sameLanguage = language ? variants.find((s) => languageOf(s.spaceId) === language) : undefined;
      const pick = sameLanguage ?? variants.find((s) => s.isDefault) ?? variants[0];
      return pick ? [pick] : [];
    });
    if (current && scope.restrictTo === 'currentSiteSpace') chosen = [current];
    if (current && scope.restrictTo === 'otherSiteSpaces') chosen = chosen.filter((s) => s.id !== current.id && s.spaceId !== current.spaceId);
  }
  return [...new Set(chosen.map((s) => s.spaceId))];
}

/** The scope kept to the `allowed` site spaces (null: all allowed): the named ones among them, or all of them. */
export function narrowScope(scope: SiteSearchScope, allowed: readonly string[] | null): SiteSearchScope {
  if (allowed === null) return scope;
  if (scope.mode === 'specific') return { ...scope, siteSpaceIds: scope.siteSpaceIds.filter((id) => allowed.includes(id)) };
  return { mode: 'specific', siteSpaceIds: [...allowed] };
}
