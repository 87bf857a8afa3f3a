import { ExecutionContext, SetMetadata, createParamDecorator } from '@nestjs/common';
import type { User } from '../domain/user';

export const PUBLIC_ROUTE = 'identity:public-route';

/** Marks a route that needs no bearer token (health, API docs). */
export const Public = () => SetMetadata(PUBLIC_ROUTE, true);

export const SITE_TOKEN_ROUTE = 'identity:site-token-route';

/**
 * Marks a route a published site's reader token may call: reads of its space's current content
 * and of its own site's published structure and redirects. Every other route answers it 403.
 */
export const SiteTokenReadable = () => SetMetadata(SITE_TOKEN_ROUTE, true);

export const INTEGRATION_SCOPES_ROUTE = 'identity:integration-scopes';

/**
 * The integration scopes a route needs from an installation token: one of `read` for GET and
 * HEAD, one of `write` for the other methods (a method-level declaration overrides its
 * controller's); `installation` lets the token in and leaves the check to the use case (the
 * integration routes, where a token acts on its own installation). Routes that declare nothing
 * answer installation tokens 403.
 */
export type RouteScopes = { read?: readonly string[]; write?: readonly string[] } | 'installation';
export const IntegrationScopes = (scopes: RouteScopes) => SetMetadata(INTEGRATION_SCOPES_ROUTE, scopes);

/** The user the bearer token belongs to. */
export const CurrentUser = createParamDecorator((_: unknown, ctx: ExecutionContext): User => {
  // The request is the first argument of an HTTP handler (switchToHttp() would make an object for it).
  return ctx.getArgByIndex(0).user;
});
