import { Injectable } from '@nestjs/common';
import { Urls } from '@app/common';
import { MASKED_HEADER_VALUE } from '../domain/site-mcp-server';
import { SiteMcpServerOrm } from '../infrastructure/site-mcp-server.orm';

/** A site MCP server as the API shows it: header names with their values masked (they are credentials). */
@Injectable()
export class SiteMcpServerPresenter {
  constructor(private readonly urls: Urls) {}

  present(organizationId: string, server: SiteMcpServerOrm) {
    return {
      object: 'site-mcp-server' as const,
      id: server.id,
      name: server.name,
      url: server.url,
      transport: server.transport as 'sse' | 'http',
      headers: Object.fromEntries(server.headerNames.map((name) => [name, MASKED_HEADER_VALUE])),
      ...(server.condition ? { condition: server.condition } : {}),
      urls: { location: this.location(organizationId, server) },
    };
  }

  location(organizationId: string, server: SiteMcpServerOrm): string {
    return this.urls.api(`/orgs/${organizationId}/sites/${server.siteId}/mcp-servers/${server.id}`);
  }
}
