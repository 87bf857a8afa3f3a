import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, InvalidError, NotFoundError, Page, PageRequest, newId } from '@app/common';
import { SecretBox } from '../../../core/secrets/secret-box';
import { Transactions } from '../../../database/transactions';
import { User } from '../../identity/domain/user';
import { assertCondition } from '../domain/condition';
import { MAX_MCP_SERVERS_PER_SITE, assertMcpHeaders, assertMcpServerName, assertMcpServerUrl, assertMcpTransport } from '../domain/site-mcp-server';
import { SiteMcpServerOrm } from '../infrastructure/site-mcp-server.orm';
import { SiteMcpServersRepository } from '../infrastructure/site-mcp-servers.repository';
import { SiteOrm } from '../infrastructure/site.orm';
import { SiteAccess } from './site-access';

export interface McpServerInput {
  name?: unknown;
  url?: unknown;
  transport?: unknown;
  headers?: unknown;
  condition?: unknown;
}

const SEALED = 'MCP server headers';

/**
 * External MCP servers a site's assistant may call as tools (organization admins). Their headers
 * carry credentials: sealed with SECRETS_KEY, never shown (answers mask their values), opened only
 * to call the server through the guarded fetcher.
 */
@Injectable()
export class SiteMcpServersService {
  constructor(
    private readonly repository: SiteMcpServersRepository,
    private readonly siteAccess: SiteAccess,
    private readonly secrets: SecretBox,
    private readonly transactions: Transactions,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async list(caller: User, organizationId: string, siteId: string, request: PageRequest): Promise<Page<SiteMcpServerOrm>> {
    const site = await this.adminSite(caller, organizationId, siteId);
    return this.repository.list(site.id, request);
  }

  async get(caller: User, organizationId: string, siteId: string, id: string): Promise<SiteMcpServerOrm> {
    const site = await this.adminSite(caller, organizationId, siteId);
    const server = await this.repository.find(site.id, id);
    if (!server) throw NotFoundError.of('Site MCP server', id);
    return server;
  }

  async create(caller: User, organizationId: string, siteId: string, input: McpServerInput): Promise<SiteMcpServerOrm> {
    if (input.name === undefined || input.url === undefined || input.headers === undefined) throw new InvalidError('name, url and headers are required');
    const headers = assertMcpHeaders(input.headers);
    const site = await this.adminSite(caller, organizationId, siteId);
    const now = this.clock.now();
    const server = Object.assign(new SiteMcpServerOrm(), {
      id: newId(),
      siteId: site.id,
      name: assertMcpServerName(input.name),
      url: assertMcpServerUrl(input.url),
      transport: input.transport === undefined ? 'sse' : assertMcpTransport(input.transport),
      ...this.sealed(headers),
      condition: input.condition === undefined || input.condition === null ? null : assertCondition(input.condition),
      createdAt: now,
      updatedAt: now,
    });
    await this.transactions.run(async (tx) => {
      if ((await this.repository.countLocked(site.id, tx)) >= MAX_MCP_SERVERS_PER_SITE) throw new InvalidError(`A site has at most ${MAX_MCP_SERVERS_PER_SITE} MCP servers`);
      await this.repository.save(server, tx);
    });
    return server;
  }

  /** Fields left out stay as they are; `condition: null` removes the condition; `headers` replaces them all. */
  async update(caller: User, organizationId: string, siteId: string, id: string, input: McpServerInput): Promise<SiteMcpServerOrm> {
    // Checked before the server is looked up: a malformed body is a 400 whatever it names.
    const patch: Partial<SiteMcpServerOrm> = {};
    if (input.name !== undefined) patch.name = assertMcpServerName(input.name);
    if (input.url !== undefined) patch.url = assertMcpServerUrl(input.url);
    if (input.transport !== undefined) patch.transport = assertMcpTransport(input.transport);
    if (input.headers !== undefined) assertMcpHeaders(input.headers);
    if (input.condition !== undefined) patch.condition = input.condition === null ? null : assertCondition(input.condition);
    const site = await this.adminSite(caller, organizationId, siteId);
    return this.transactions.run(async (tx) => {
      const server = await this.repository.findForUpdate(site.id, id, tx);
      if (!server) throw NotFoundError.of('Site MCP server', id);
      Object.assign(server, patch, { updatedAt: this.clock.now() });
      // Masked values keep what is stored: merged on the locked row.
      if (input.headers !== undefined) Object.assign(server, this.sealed(assertMcpHeaders(input.headers, this.headers(server))));
      await this.repository.save(server, tx);
      return server;
    });
  }

  /** False when the site has no such server. */
  async delete(caller: User, organizationId: string, siteId: string, id: string): Promise<boolean> {
    const site = await this.adminSite(caller, organizationId, siteId);
    return this.repository.delete(site.id, id);
  }

  /** The server's headers in clear, to call it (through the guarded fetcher only). */
  headers(server: SiteMcpServerOrm): Record<string, string> {
    return server.sealedHeaders ? (JSON.parse(this.secrets.open(server.sealedHeaders)) as Record<string, string>) : {};
  }

  private sealed(headers: Record<string, string>): Pick<SiteMcpServerOrm, 'headerNames' | 'sealedHeaders'> {
    const names = Object.keys(headers);
    return { headerNames: names, sealedHeaders: names.length ? this.secrets.seal(JSON.stringify(headers), SEALED) : null };
  }

  private async adminSite(caller: User, organizationId: string, siteId: string): Promise<SiteOrm> {
    return (await this.siteAccess.read(caller, organizationId, siteId, 'admin')).site;
  }
}
