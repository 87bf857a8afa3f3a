import { INestApplication } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ActorContextGuard, actorScope } from '../core/context/actor-context.guard';
import { NestExpressApplication } from '@nestjs/platform-express';
import { AllExceptionsFilter, AppConfig, createValidationPipe, installRequestParsing } from '@app/common';
import { configureCors } from './cors';
import { UPLOAD_PATH } from '../modules/content/application/storage-uploads.service';
import { mountHomePage } from './home-page';
import { setupOpenApi } from './openapi/setup-openapi';
import { applySecurityHeaders } from './security-headers';
import { mountAdminConsole } from '../admin/admin-console';
import { mountMetrics } from '../metrics/mount-metrics';
import { mountPublishedSites } from '../modules/published/api/published-site.routes';
import { mountSiteMcp } from '../modules/published/api/site-mcp.routes';
import { mountSiteAsk } from '../modules/published/api/site-ask.routes';
import { mountOrganizationMcp } from '../modules/agents/api/organization-mcp.routes';
import { mountRateLimits } from '../core/rate-limits/rate-limits';
import { IdempotencyAuthenticator, mountIdempotency } from '../core/idempotency/idempotency';
import { IdentityService } from '../modules/identity/application/identity.service';
import { looksLikeSiteToken } from '../modules/identity/application/site-token-verifier';
import { accessLog } from '../core/logging/access-log';
import { ROOT_LOGGER } from '../core/logging.module';

/** Everything the HTTP app needs beyond its modules; shared by main.ts and the test app factory. */
export function configureApi(app: INestApplication, config: AppConfig): void {
  const express = app as NestExpressApplication;
  // First, so every answer has its request id and its line, whatever answers it.
  express.use(accessLog(app.get(ROOT_LOGGER)));
  express.disable('x-powered-by');
  express.set('query parser', 'extended');
  // Behind a reverse proxy, the client's address (rate limits, logs) comes from X-Forwarded-For only from proxies trusted here.
  express.set('trust proxy', config.trustProxy);
  applySecurityHeaders(app, config.publicUrl);
  mountMetrics(app, config);
  mountRateLimits(app);
  // Specs sent as text are bounded by OPENAPI_MAX_BYTES (half again for JSON escaping; the service checks the text itself), not BODY_LIMIT.
  installRequestParsing(app, config.bodyLimit, [{ methods: ['POST', 'PUT', 'PATCH'], path: /^\/v1\/orgs\/[^/]+\/openapi(?:\/[^/]+)?\/?$/, limit: Math.ceil(config.openapiMaxBytes * 1.5) }], [UPLOAD_PATH]);
  // After parsing (the body is part of what a key stands for), before any route runs.
  mountIdempotency(app, idempotencyCredential(app));
  express.use(actorScope);
  // Browser-facing addresses live outside /v1: SAML sign-in (start, ACS, SP metadata), PDF downloads and public OpenAPI specs.
  mountAdminConsole(app, config);
  // Published sites: /sites/{basename}/... and whole hosts claimed by sites; each is an MCP server at .../~gitbook/mcp.
  mountSiteMcp(app, config);
  mountSiteAsk(app, config);
  mountPublishedSites(app, config);
  // The organization MCP server, for agents with an API token.
  mountOrganizationMcp(app);
  mountHomePage(app);
  app.setGlobalPrefix('v1', { exclude: ['health', 'docs', 'openapi.json', 'sso/saml/{*path}', 'pdf/{*path}', 'openapi/{*path}'] });
  app.useGlobalPipes(createValidationPipe());
  app.useGlobalFilters(new AllExceptionsFilter());
  // The audit log and the event outbox learn who is acting, and through which operation, from here;
  // after the bearer guard (an APP_GUARD, registered when the app was created), so the caller is known.
  app.useGlobalGuards(new ActorContextGuard(app.get(Reflector)));
  app.enableShutdownHooks();
  configureCors(app, config);

  setupOpenApi(app, config);
}

/** The credential an Idempotency-Key belongs to: a valid API token's id (site tokens only read). */
function idempotencyCredential(app: INestApplication): IdempotencyAuthenticator {
  const identity = app.get(IdentityService, { strict: false });
  return async (bearer) => (looksLikeSiteToken(bearer) ? null : ((await identity.authenticateToken(bearer))?.tokenId ?? null));
}
