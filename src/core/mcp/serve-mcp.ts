import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Request, Response } from 'express';
import { errorBody, isDependencyOutage } from '@app/common';

/**
 * Answers one MCP request with `server` over streamable HTTP, stateless (a server per request, no
 * session, JSON answers): what both of our MCP servers need from the transport.
 */
export async function serveMcp(server: McpServer, req: Request, res: Response): Promise<void> {
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, req.body);
}

/** An MCP address's refusal before any MCP is spoken, in the API's error shape. */
export function refuseMcp(res: Response, status: number, message: string, headers: Record<string, string> = {}): void {
  res.status(status).set({ 'Content-Type': 'application/json', 'Cache-Control': 'no-store', ...headers }).end(JSON.stringify(errorBody(status, message)));
}

/** A request that failed on our side: 503 while a dependency is away, else 500, unless an answer has begun. */
export function failMcp(res: Response, error: unknown): void {
  if (res.headersSent) return;
  if (isDependencyOutage(error)) refuseMcp(res, 503, 'A dependency is unavailable; try again shortly', { 'Retry-After': '5' });
  else refuseMcp(res, 500, 'Unexpected error');
}
