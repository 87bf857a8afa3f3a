/**
 * The error statuses an operation can answer, all with the one error shape the global exception
 * filter writes. Derived from what the operation takes (auth, path ids, body, query) plus a map of the
 * state conflicts services raise (409), failed preconditions (412) and locked spaces (423).
 */
export const ERROR_SCHEMA_NAME = 'Error';

export const ERROR_SCHEMA = {
  type: 'object',
  description: 'Every error answer: `{"error": {"code": <HTTP status>, "message": "<what went wrong>"}}`',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: { code: { type: 'integer', example: 404 }, message: { type: 'string', example: 'Space "x" not found' } },
    },
  },
};

const DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid request: the message names each offending field',
  401: 'Missing, invalid or revoked bearer token',
  403: 'The caller can see the resource but lacks the role this needs',
  404: 'Not found, or not visible to the caller',
  409: 'The resource is not in a state that allows this, or a concurrent change won; nothing was changed',
  412: 'A precondition is not met (e.g. merge rules, the target organization refuses, or an `If-Match` tag is stale)',
  413: 'The request body is too large',
  422: 'The `Idempotency-Key` was already used with a different request (method, path or body)',
  423: 'The space is locked',
  429: 'Over the request budget (see `X-RateLimit-*`): retry after `Retry-After` seconds',
};

export function errorResponseComponents(): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(DESCRIPTIONS).map(([status, description]) => [
      `Error${status}`,
      { description, content: { 'application/json': { schema: { $ref: `#/components/schemas/${ERROR_SCHEMA_NAME}` } } } },
    ]),
  );
}

interface OperationFacts {
  method: string;
  /** Without the `/v1` prefix. */
  path: string;
  authenticated: boolean;
  hasBody: boolean;
  hasQuery: boolean;
}

const WRITE = /^(post|put|patch|delete)$/;
const SPACE_CONTENT_WRITES = /^\/spaces\/\{spaceId\}(\/change-requests(\/.*)?|\/content(\/.*)?)?$/;
const CONFLICTS: RegExp[] = [
  /^\/spaces\/\{spaceId\}\/change-requests(\/.*)?$/,
  /^\/spaces\/\{spaceId\}(\/(move|transfer|restore|duplicate|content\/template))?$/,
  /^\/collections\/\{collectionId\}(\/(move|transfer))?$/,
  /^\/orgs\/\{organizationId\}$/,
  /^\/orgs\/\{organizationId\}\/members\/\{userId\}$/,
  /^\/orgs\/\{organizationId\}\/saml(\/.*)?$/,
  /^\/orgs\/\{organizationId\}\/members\/\{userId\}\/sso$/,
];
const PRECONDITIONS: RegExp[] = [
  /\/change-requests\/\{changeRequestId\}\/merge$/,
  // updateChangeRequestContent honours If-Match.
  /\/change-requests\/\{changeRequestId\}\/content$/,
  /^\/spaces\/\{spaceId\}\/transfer$/,
];
/** PATCHes that honour If-Match (a stale ETag is a 412). */
const IF_MATCH_PATCHES: RegExp[] = [
  /^\/spaces\/\{spaceId\}$/,
  /^\/spaces\/\{spaceId\}\/change-requests\/\{changeRequestId\}$/,
  /^\/orgs\/\{organizationId\}\/sites\/\{siteId\}$/,
];

export function errorStatuses(op: OperationFacts): number[] {
  const statuses = new Set<number>();
  if (op.hasBody || op.hasQuery) statuses.add(400);
  if (op.authenticated) statuses.add(401);
  if (op.authenticated && (WRITE.test(op.method) || op.path.includes('{'))) statuses.add(403);
  if (op.path.includes('{')) statuses.add(404);
  if (WRITE.test(op.method)) {
    if (CONFLICTS.some((pattern) => pattern.test(op.path))) statuses.add(409);
    if (PRECONDITIONS.some((pattern) => pattern.test(op.path))) statuses.add(412);
    if (op.method === 'patch' && IF_MATCH_PATCHES.some((pattern) => pattern.test(op.path))) statuses.add(412);
    if (SPACE_CONTENT_WRITES.test(op.path)) statuses.add(423);
  }
  if (op.hasBody) statuses.add(413);
  return [...statuses].sort();
}
