import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { ModuleRef, Reflector } from '@nestjs/core';
import { ForbiddenError, HandlerMemo, UnauthenticatedError, bearerToken } from '@app/common';
import { IdentityService } from '../application/identity.service';
import { SiteTokenVerifier, looksLikeSiteToken } from '../application/site-token-verifier';
import { InstallationTokenVerifier, looksLikeInstallationToken } from '../application/installation-token-verifier';
import { User } from '../domain/user';
import { INTEGRATION_SCOPES_ROUTE, PUBLIC_ROUTE, RouteScopes, SITE_TOKEN_ROUTE } from './auth.decorators';
import { optionalProvider } from '../../../core/context/optional-provider';

/**
 * Global guard: every route needs `Authorization: Bearer <token>` unless marked @Public(). The
 * token is an API token, or a published site's reader token on the routes marked
 * @SiteTokenReadable().
 */
@Injectable()
export class BearerGuard implements CanActivate {
  /** Whether each route handler is public: metadata never changes, and reading it is a measurable part of a fast read. */
  private readonly publicHandlers = new HandlerMemo<boolean>();
  private readonly siteTokenHandlers = new HandlerMemo<boolean>();
  private readonly scopedHandlers = new HandlerMemo<RouteScopes | null>();
  /** Applications without published sites have none. */
  private readonly siteTokenVerifier: () => SiteTokenVerifier | null;
  private readonly installationTokenVerifier: () => InstallationTokenVerifier | null;

  constructor(
    private readonly reflector: Reflector,
    private readonly identity: IdentityService,
    modules: ModuleRef,
  ) {
    this.siteTokenVerifier = optionalProvider(modules, SiteTokenVerifier);
    this.installationTokenVerifier = optionalProvider(modules, InstallationTokenVerifier);
  }

  /** Synchronous for an API token this process remembers (most requests): no promise to wait for. */
  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    if (this.isPublic(context)) return true;
    const request = context.getArgByIndex(0);
    const token = bearerToken(request.headers?.authorization);
    if (!token) throw new UnauthenticatedError('Missing bearer token in the Authorization header');
    if (looksLikeSiteToken(token)) return this.siteReader(context, token).then((user) => admit(request, user));
    if (looksLikeInstallationToken(token)) return this.installation(context, token, request.method).then((user) => admit(request, user));
    const remembered = this.identity.authenticateRememberedToken(token);
    if (remembered) return admit(request, remembered.user, remembered.tokenId);
    return this.identity.authenticateToken(token).then((found) => {
      if (!found) throw new UnauthenticatedError('Invalid or revoked API token');
      return admit(request, found.user, found.tokenId);
    });
  }

  private async siteReader(context: ExecutionContext, token: string): Promise<User> {
    const reader = await this.siteTokenVerifier()?.verify(token);
    if (!reader) throw new UnauthenticatedError('Invalid or expired site token');
    if (!this.siteTokenHandlers.of(context, (handler, controller) => this.reflector.getAllAndOverride<boolean>(SITE_TOKEN_ROUTE, [handler, controller]) === true)) {
      throw new ForbiddenError("A site token only reads its site's published structure and content, the OpenAPI specs it shows and the people it mentions: this operation needs an API token");
    }
    return reader;
  }

  /** An installation token, on a route that declares the scope it needs and one the token holds. */
  private async installation(context: ExecutionContext, token: string, method: string): Promise<User> {
    const integration = await this.installationTokenVerifier()?.verify(token);
    if (!integration?.integrationScope) throw new UnauthenticatedError('Invalid or expired installation token');
    const declared = this.scopedHandlers.of(context, (handler, controller) => this.reflector.getAllAndOverride<RouteScopes>(INTEGRATION_SCOPES_ROUTE, [handler, controller]) ?? null);
    if (declared === 'installation') return integration;
    const needed = declared ? (method === 'GET' || method === 'HEAD' ? declared.read : declared.write) : undefined;
    if (!needed?.length) throw new ForbiddenError('This operation is not open to integration installation tokens');
    if (!needed.some((scope) => integration.integrationScope!.scopes.includes(scope))) {
      throw new ForbiddenError(`This operation needs the integration scope ${needed.map((s) => `"${s}"`).join(' or ')}`);
    }
    return integration;
  }

  private isPublic(context: ExecutionContext): boolean {
    return this.publicHandlers.of(context, (handler, controller) => this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, [handler, controller]) === true);
  }
}

/** The caller, and for the audit log which of the user's tokens made the change. */
function admit(request: { user?: User; tokenId?: string }, user: User, tokenId?: string): true {
  request.user = user;
  if (tokenId !== undefined) request.tokenId = tokenId;
  return true;
}
