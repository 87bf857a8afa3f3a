import { Injectable, Logger } from '@nestjs/common';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { guardedFetchApi, guardedStreamingFetchApi } from '../../../core/outbound/fetch-api';
import { GuardedFetcher } from '../../../core/outbound/guarded-fetcher';
import { SiteMcpServersRepository } from '../infrastructure/site-mcp-servers.repository';
import { SiteMcpServersService } from './site-mcp-servers.service';

/** A tool of one of a site's MCP servers, as offered to the model. */
export interface SiteTool {
  /** The name the model calls it by: unique among the site's tools. */
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  serverId: string;
  toolName: string;
}

/** The tools of a site's MCP servers, open for one answer. */
export interface SiteToolbox {
  tools: SiteTool[];
  /** Calls a tool by the name the model used: its text result (untrusted data, at most 8 KB), or the reason it failed. */
  call(name: string, args: unknown): Promise<string>;
  close(): Promise<void>;
}

const MAX_RESULT = 8 * 1024;
const MAX_TOOLS = 32;
const LIMITS = { maxBytes: 1024 * 1024, timeoutMs: 10_000 };

/**
 * A site assistant's MCP servers (listSiteMcpServers), connected for one answer through the guarded
 * fetcher with their sealed headers, over streamable HTTP or SSE (servers with a visitor condition
 * are left out: an answer does not evaluate it). A server that cannot be reached is left out; its
 * tools' results are data for the model, never instructions.
 */
@Injectable()
export class SiteMcpTools {
  private readonly logger = new Logger(SiteMcpTools.name);

  constructor(
    private readonly repository: SiteMcpServersRepository,
    private readonly servers: SiteMcpServersService,
    private readonly fetcher: GuardedFetcher,
  ) {}

  async open(siteId: string): Promise<SiteToolbox | null> {
    const configured = (await this.repository.list(siteId, { limit: 20 })).items.filter((s) => !s.condition);
    if (configured.length === 0) return null;
    const clients: Client[] = [];
    const tools: SiteTool[] = [];
    const byName = new Map<string, { client: Client; toolName: string }>();
    await Promise.all(
      configured.map(async (server, index) => {
        const client = new Client({ name: 'docs-platform-site-assistant', version: '1.0.0' });
        try {
          await client.connect(this.transport(server.transport, new URL(server.url), this.servers.headers(server)));
          clients.push(client);
          const listed = await client.listTools();
          for (const tool of listed.tools) {
            const name = `s${index}_${tool.name}`.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);
            byName.set(name, { client, toolName: tool.name });
            tools.push({ name, description: `${(tool.description ?? tool.name).slice(0, 500)} (from ${server.name})`, parameters: tool.inputSchema as Record<string, unknown>, serverId: server.id, toolName: tool.name });
          }
        } catch (error) {
          this.logger.warn(`Site MCP server ${server.id} left out: ${(error as Error).message}`);
          await client.close().catch(() => undefined);
        }
      }),
    );
    // The servers answer in any order: their tools are listed in the site's order of servers.
    tools.sort((a, b) => a.name.localeCompare(b.name, 'en', { numeric: true }));
    return {
      tools: tools.slice(0, MAX_TOOLS),
      call: async (name, args) => {
        const target = byName.get(name);
        if (!target) return `No tool is called ${name}`;
        try {
          const result = await target.client.callTool({ name: target.toolName, arguments: typeof args === 'object' && args !== null ? (args as Record<string, unknown>) : {} });
          const text = ((result.content as Array<{ type: string; text?: string }> | undefined) ?? []).filter((c) => c.type === 'text').map((c) => c.text ?? '').join('\n');
          return (result.isError ? `The tool failed: ${text}` : text).slice(0, MAX_RESULT);
        } catch (error) {
          return `The tool could not be called: ${(error as Error).message}`.slice(0, 500);
        }
      },
      close: async () => {
        await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
      },
    };
  }

  /**
   * Streamable HTTP (each answer read whole; the optional stream of server-initiated messages
   * refused locally), or SSE (its event stream read as it comes, each silence at most 10 s, 1 MB in
   * all for one answer); every request through the guarded fetcher.
   */
  private transport(kind: string, url: URL, headers: Record<string, string>): Transport {
    const post = guardedFetchApi(this.fetcher, LIMITS, { refuseGet: true });
    if (kind === 'http') return new StreamableHTTPClientTransport(url, { fetch: post, requestInit: { headers } });
    return new SSEClientTransport(url, { fetch: guardedFetchApi(this.fetcher, LIMITS), eventSourceInit: { fetch: guardedStreamingFetchApi(this.fetcher, LIMITS) }, requestInit: { headers } });
  }
}
