import { INestApplication } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ActorContextGuard, actorScope } from '../core/context/actor-context.guard';
import { NestExpressApplication } from '@nestjs/platform-express';
import { AllExceptionsFilter, AppConfig, MiddlewareChain, createValidationPipe, installRequestParsing } from '@app/common';
import { Router } from 'express';
import type { RequestHandler } from 'express';
import { configureCors } from './cors';
import { UPLOAD_PATH } from '../modules/content/application/storage-uploads.service';
import { mountHomePage } from './home-page';
import { setupOpenApi } from './openapi/setup-openapi';
import { securityHeaders } from './security-headers';
import { mountAdminConsole } from '../admin/admin-console';
import { mountMetrics, recordRequestDuration } from '../metrics/mount-metrics';
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
  express.disable('x-powered-by');
  express.set('query parser', 'extended');
  // Behind a reverse proxy, the client's address (rate limits, logs) comes from X-Forwarded-For only from proxies trusted here.
  express.set('trust proxy', config.trustProxy);
  express.use(everyRequest(app, config).handler());
  express.use(outsideApi(app, config));
  // Browser-facing addresses live outside /v1: SAML sign-in (start, ACS, SP metadata), PDF downloads and public OpenAPI specs.
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

/** What every request goes through before any route, in this order, from one Express layer. */
function everyRequest(app: INestApplication, config: AppConfig): MiddlewareChain {
  const chain = new MiddlewareChain();
  // First, so every answer has its request id and its line, whatever answers it.
  chain.use(accessLog(app.get(ROOT_LOGGER), recordRequestDuration));
  chain.use(securityHeaders(config.publicUrl));
  mountMetrics(chain, config);
  mountRateLimits(app, chain);
  // Specs sent as text are bounded by OPENAPI_MAX_BYTES (half again for JSON escaping; the service checks the text itself), not BODY_LIMIT.
  installRequestParsing(app, chain, config.bodyLimit, [{ methods: ['POST', 'PUT', 'PATCH'], path: /^\/v1\/orgs\/[^/]+\/openapi(?:\/[^/]+)?\/?$/, limit: Math.ceil(config.openapiMaxBytes * 1.5) }], [UPLOAD_PATH]);
  // After parsing (the body is part of what a key stands for), before any route runs.
  mountIdempotency(app, chain, idempotencyCredential(app));
  chain.use(actorScope);
  return chain;
}

/** The API's own paths: none of the surfaces below answers one of them, on any host. */
const API_PATH = /^\/v1(?:\/|$)/;

/**
 * Everything this server answers outside /v1, tried in this order: the operator's console; for
 * published sites (`/sites/{basename}/...`, and every path of a host a site claims) their MCP
 * servers, Ask and pages; the organization MCP server for agents with an API token; the home page.
 * An API request skips all of them at once (a site's host never owns /v1: see SERVER_PATHS).
 */
function outsideApi(app: INestApplication, config: AppConfig): RequestHandler {
  const surfaces = Router();
  mountAdminConsole(app, config, surfaces);
  mountSiteMcp(app, config, surfaces);
  mountSiteAsk(app, config, surfaces);
  mountPublishedSites(app, config, surfaces);
  mountOrganizationMcp(app, surfaces);
  mountHomePage(surfaces);
  const sitesOnServer = `${new URL(config.publicUrl).pathname.replace(/\/+$/, '')}/sites/`;
  return (req, res, next) => (API_PATH.test(req.path) && !req.path.startsWith(sitesOnServer) ? next() : surfaces(req, res, next));
}

/** The credential an Idempotency-Key belongs to: a valid API token's id (site tokens only read). */
function idempotencyCredential(app: INestApplication): IdempotencyAuthenticator {
  const identity = app.get(IdentityService, { strict: false });
  return async (bearer) => (looksLikeSiteToken(bearer) ? null : ((await identity.authenticateToken(bearer))?.tokenId ?? null));
}
