import { INestApplication, Logger } from '@nestjs/common';
import type { NextFunction, Request, Response, Router } from 'express';
import { failMcp, refuseMcp, serveMcp } from '../../../core/mcp/serve-mcp';
import { IdentityService } from '../../identity/application/identity.service';
import { organizationMcpServer } from '../application/organization-mcp-server';
import { OwnApi } from '../application/own-api';

export const ORGANIZATION_MCP_PATH = '/mcp';

/**
 * The organization MCP server at `/mcp` (streamable HTTP, stateless) for agents holding an API
 * token (`Authorization: Bearer <token>`): its tools act through our REST API as the token's user.
 * A missing or unknown token is a 401 before any tool is listed.
 */
export function mountOrganizationMcp(app: INestApplication, into: Router): void {
  const identity = app.get(IdentityService, { strict: false });
  const logger = new Logger('OrganizationMcp');

  into.use((req: Request, res: Response, next: NextFunction) => {
    if (req.path !== ORGANIZATION_MCP_PATH) return next();
    serve(req, res).catch((error: unknown) => {
      logger.error({ err: error }, 'organization MCP request failed');
      failMcp(res, error);
    });
  });

  async function serve(req: Request, res: Response): Promise<void> {
    const authorization = req.headers.authorization ?? '';
    const token = /^Bearer\s+(\S+)$/i.exec(authorization)?.[1];
    if (!token || !(await identity.authenticateToken(token))) return refuseMcp(res, 401, 'An API token is required: Authorization: Bearer <token>', { 'WWW-Authenticate': 'Bearer' });
    const server = organizationMcpServer(new OwnApi(ownAddress(req), `Bearer ${token}`, viaMcp(req.headers['user-agent'])));
    await serveMcp(server, req, res);
  }
}

/** This server as the request reached it: the local end of its socket. */
function ownAddress(req: Request): string {
  const address = (req.socket.localAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
  return `http://${address.includes(':') ? `[${address}]` : address}:${req.socket.localPort}`;
}

/** The agent client's user agent, marked as reaching the API through this server (control characters dropped). */
function viaMcp(userAgent: string | undefined): string {
  const client = (userAgent ?? '').replace(/[^\x20-\x7e]/g, '').trim().slice(0, 200);
  return `${client || 'unknown'} via MCP`;
}
