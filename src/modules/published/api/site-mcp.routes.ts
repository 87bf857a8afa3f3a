import { INestApplication, Logger } from '@nestjs/common';
import type { NextFunction, Request, Response, Router } from 'express';
import { AppConfig, DomainError } from '@app/common';
import { failMcp, refuseMcp, serveMcp } from '../../../core/mcp/serve-mcp';
import { RateLimiter } from '../../../core/rate-limits/rate-limiter';
import { VisitorAuthRequiredError } from '../../sites/domain/visitor';
import { SiteAgentReader } from '../application/site-agent-reader';
import { siteMcpServer } from '../application/site-mcp-server';
import { readerBudget, siteAddress } from './published-site.routes';

/** `<site address>/~gitbook/mcp`, and `/~gitbook/mcp/auth` where a visitor token is required. */
const MCP_PATH = /^(.*?)\/~gitbook\/mcp(\/auth)?\/?$/;

/**
 * Every published site is an MCP server (streamable HTTP, stateless: a server per request) at its
 * address plus `/~gitbook/mcp`, read-only, with the site's audience: a share link's address, a
 * visitor token (`Authorization: Bearer <token>` or `?jwt_token=`) and its claims. A site that is
 * not published, or an address no reader could open, is a 404; a site that needs a visitor token
 * without one, a 401.
 */
export function mountSiteMcp(app: INestApplication, config: AppConfig, into: Router): void {
  const agents = app.get(SiteAgentReader, { strict: false });
  const limiter = app.get(RateLimiter, { strict: false });
  const publicUrl = new URL(config.publicUrl);
  const logger = new Logger('SiteMcp');

  into.use((req: Request, res: Response, next: NextFunction) => {
    const match = MCP_PATH.exec(req.path);
    if (!match) return next();
    const addressed = siteAddress(req, publicUrl);
    if (!addressed) return next();
    const siteUrl = new URL(addressed.url);
    siteUrl.pathname = siteUrl.pathname.replace(/\/~gitbook\/mcp(\/auth)?\/?$/, '') || '/';
    const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const token = bearer ?? addressed.url.searchParams.get('jwt_token') ?? undefined;
    siteUrl.search = '';
    serve(req, res, siteUrl, token, match[2] !== undefined).catch((error: unknown) => {
      logger.error({ err: error, site: siteUrl.hostname }, 'site MCP request failed');
      failMcp(res, error);
    });
  });

  async function serve(req: Request, res: Response, siteUrl: URL, token: string | undefined, requireToken: boolean): Promise<void> {
    if (!(await readerBudget(limiter, true, req.ip ?? 'unknown', res))) return;
    if (requireToken && !token) return refuseMcp(res, 401, 'This address needs a visitor token (Authorization: Bearer <token>)', { 'WWW-Authenticate': 'Bearer' });
    let site;
    try {
      site = await agents.open(siteUrl, { jwtToken: token, unsignedClaims: {} });
    } catch (error) {
      if (error instanceof VisitorAuthRequiredError) return refuseMcp(res, 401, error.message, { 'WWW-Authenticate': 'Bearer' });
      if (error instanceof DomainError) return refuseMcp(res, 404, 'No published site lives at this address');
      throw error;
    }
    const server = siteMcpServer(site);
    await serveMcp(server, req, res);
  }
}
