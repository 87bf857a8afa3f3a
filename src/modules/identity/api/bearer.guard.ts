import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { HandlerMemo, UnauthenticatedError, bearerToken } from '@app/common';
import { IdentityService } from '../application/identity.service';
import { PUBLIC_ROUTE } from './auth.decorators';

/** Global guard: every route needs `Authorization: Bearer <token>` unless marked @Public(). */
@Injectable()
export class BearerGuard implements CanActivate {
  /** Whether each route handler is public: metadata never changes, and reading it is a measurable part of a fast read. */
  private readonly publicHandlers = new HandlerMemo<boolean>();

  constructor(
    private readonly reflector: Reflector,
    private readonly identity: IdentityService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.isPublic(context)) return true;
    const request = context.switchToHttp().getRequest();
    const token = bearerToken(request.headers?.authorization);
    if (!token) throw new UnauthenticatedError('Missing bearer token in the Authorization header');
    const found = await this.identity.authenticateToken(token);
    if (!found) throw new UnauthenticatedError('Invalid or revoked API token');
    request.user = found.user;
    // For the audit log: which of the user's tokens made the change.
    request.tokenId = found.tokenId;
    return true;
  }

  private isPublic(context: ExecutionContext): boolean {
    return this.publicHandlers.of(context, (handler, controller) => this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, [handler, controller]) === true);
  }
}
