import { ExecutionContext, SetMetadata, createParamDecorator } from '@nestjs/common';
import type { User } from '../domain/user';

export const PUBLIC_ROUTE = 'identity:public-route';

/** Marks a route that needs no bearer token (health, API docs). */
export const Public = () => SetMetadata(PUBLIC_ROUTE, true);

/** The user the bearer token belongs to. */
export const CurrentUser = createParamDecorator((_: unknown, ctx: ExecutionContext): User => {
  return ctx.switchToHttp().getRequest().user;
});
