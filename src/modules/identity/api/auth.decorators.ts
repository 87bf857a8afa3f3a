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

/** The user the bearer token belongs to. */
export const CurrentUser = createParamDecorator((_: unknown, ctx: ExecutionContext): User => {
  return ctx.switchToHttp().getRequest().user;
});
