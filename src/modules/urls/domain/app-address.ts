/**
 * What an address of this server's app names. The presenters build these addresses
 * (`urls.app`): `{app}/c/{collectionId}`, `{app}/s/{spaceId}`, `{app}/s/{spaceId}/{page path}`
 * and the same under `{app}/s/{spaceId}/~/changes/{number}` for a change request. GitBook's own
 * form with the organization first (`{app}/o/{organizationId}/s/...`, `.../c/...`) is read too.
 */
export type AppAddress =
  | { kind: 'collection'; collectionId: string; organizationId?: string }
  | { kind: 'space'; spaceId: string; organizationId?: string; changeRequest?: string; pagePath: string };

/**
 * Reads an address against the app's base (`{PUBLIC_URL}/app`): same origin, path under the
 * base. Query and fragment are ignored (a fragment names a heading, not content). Null when the
 * address is not one of the app's content addresses, or a segment is not valid percent-encoding.
 */
export function parseAppAddress(url: URL, appBase: URL): AppAddress | null {
  if (url.origin !== appBase.origin) return null;
  const base = segmentsOf(appBase.pathname);
  const all = segmentsOf(url.pathname);
  if (!all || !base || base.some((part, i) => all[i] !== part)) return null;
  let rest = all.slice(base.length);
  let organizationId: string | undefined;
  if (rest[0] === 'o' && rest[1]) {
    organizationId = rest[1];
    rest = rest.slice(2);
  }
  const [kind, id, ...tail] = rest;
  if (!id) return null;
  const inOrganization = organizationId ? { organizationId } : {};
  if (kind === 'c') return tail.length === 0 ? { kind: 'collection', collectionId: id, ...inOrganization } : null;
  if (kind !== 's') return null;
  if (tail[0] === '~') {
    if (tail[1] !== 'changes' || !tail[2]) return null;
    return { kind: 'space', spaceId: id, ...inOrganization, changeRequest: tail[2], pagePath: tail.slice(3).join('/') };
  }
  return { kind: 'space', spaceId: id, ...inOrganization, pagePath: tail.join('/') };
}

/** Decoded non-empty path segments; null when one is not valid percent-encoding. */
function segmentsOf(pathname: string): string[] | null {
  const segments: string[] = [];
  for (const raw of pathname.split('/')) {
    if (!raw) continue;
    try {
      segments.push(decodeURIComponent(raw));
    } catch {
      return null;
    }
  }
  return segments;
}
