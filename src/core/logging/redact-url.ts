/** What replaces a credential in a logged path. */
export const REDACTED = '[redacted]';

/**
 * Routes whose path carries a credential, as lower-cased segments after the optional `v1`
 * prefix; `*` is any segment and `SECRET` the one to hide (a pattern: the segment to hide when it
 * matches): file download keys, PDF tokens, link-invite ids (which let anyone holding them join
 * an organization), site preview tokens, and share keys of published sites (32 base64url
 * characters, under this server's `/sites/{site}/` or first on a site's own host).
 */
const SECRET = Symbol('secret');
const SHARE_KEY = /^[A-Za-z0-9_-]{32}$/;
const CREDENTIAL_ROUTES: (string | typeof SECRET | RegExp)[][] = [
  ['files', SECRET],
  ['pdf', SECRET],
  ['orgs', '*', 'invites', SECRET],
  ['orgs', '*', 'link-invites', SECRET],
  ['sites', '*', '~preview', SECRET],
  ['sites', '*', SHARE_KEY],
  [SHARE_KEY],
];

/**
 * The request URL as it may be logged: the query string dropped (it may hold tokens or SAML
 * relay state) and the secret segment of credential-bearing routes replaced by `[redacted]`.
 * Segments are compared decoded and case-insensitively, as the router matches them, so
 * `/V1/%66iles/<key>` is redacted too.
 */
export function redactUrl(url: string): string {
  const path = url.split(/[?#]/, 1)[0];
  const segments = path.split('/');
  const offset = normalize(segments[1]) === 'v1' ? 2 : 1;
  for (const route of CREDENTIAL_ROUTES) {
    if (segments.length < offset + route.length) continue;
    const matches = route.every((part, i) =>
      part === SECRET || part === '*' ? true : part instanceof RegExp ? part.test(segments[offset + i]) : normalize(segments[offset + i]) === part,
    );
    if (!matches) continue;
    const secretAt = offset + route.findIndex((part) => part === SECRET || part instanceof RegExp);
    return [...segments.slice(0, secretAt), REDACTED, ...segments.slice(secretAt + 1)].join('/');
  }
  return path;
}

function normalize(segment: string | undefined): string {
  if (segment === undefined) return '';
  try {
    return decodeURIComponent(segment).toLowerCase();
  } catch {
    return segment.toLowerCase();
  }
}
