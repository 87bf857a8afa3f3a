import { INestApplication, Logger } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { NextFunction, Request, Response } from 'express';
import { errorBody, isDependencyOutage } from '@app/common';
import { IdentityService } from '../../identity/application/identity.service';
import { organizationMcpServer } from '../application/organization-mcp-server';
import { OwnApi } from '../application/own-api';

export const ORGANIZATION_MCP_PATH = '/mcp';

/**
 * The organization MCP server at `/mcp` (streamable HTTP, stateless) for agents holding an API
 * token (`Authorization: Bearer <token>`): its tools act through our REST API as the token's user.
 * A missing or unknown token is a 401 before any tool is listed.
 */
export function mountOrganizationMcp(app: INestApplication): void {
  const express = app as NestExpressApplication;
  const identity = app.get(IdentityService, { strict: false });
  const logger = new Logger('OrganizationMcp');

  express.use((req: Request, res: Response, next: NextFunction) => {
    if (req.path !== ORGANIZATION_MCP_PATH) return next();
    serve(req, res).catch((error: unknown) => {
      logger.error({ err: error }, 'organization MCP request failed');
      if (!res.headersSent) answer(res, isDependencyOutage(error) ? 503 : 500, isDependencyOutage(error) ? 'A dependency is unavailable; try again shortly' : 'Unexpected error');
    });
  });

  async function serve(req: Request, res: Response): Promise<void> {
    const authorization = req.headers.authorization ?? '';
    const token = /^Bearer\s+(\S+)$/i.exec(authorization)?.[1];
    if (!token || !(await identity.authenticateToken(token))) return answer(res, 401, 'An API token is required: Authorization: Bearer <token>', { 'WWW-Authenticate': 'Bearer' });
    const server = organizationMcpServer(new OwnApi(ownAddress(req), `Bearer ${token}`));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  }
}

/** This server as the request reached it: the local end of its socket. */
function ownAddress(req: Request): string {
  const address = (req.socket.localAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
  return `http://${address.includes(':') ? `[${address}]` : address}:${req.socket.localPort}`;
}

function answer(res: Response, status: number, message: string, headers: Record<string, string> = {}): void {
  res.status(status).set({ 'Content-Type': 'application/json', 'Cache-Control': 'no-store', ...headers }).end(JSON.stringify(errorBody(status, message)));
}
