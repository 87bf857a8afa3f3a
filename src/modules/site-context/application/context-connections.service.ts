import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, InvalidError, NotFoundError, Page, PageRequest, newId } from '@app/common';
import { GuardedFetcher } from '../../../core/outbound/guarded-fetcher';
import { SecretBox } from '../../../core/secrets/secret-box';
import { Transactions } from '../../../database/transactions';
import { JobOutbox } from '../../../jobs/outbox/job-outbox';
import { User } from '../../identity/domain/user';
import { SiteAccess } from '../../sites/application/site-access';
import { PULLED_CONNECTORS, assertConnector, assertFilter, assertLabel, defaultUsageSettings, parseSetup, parseUsageSettings } from '../domain/context-connection';
import { ContextConnectionOrm } from '../infrastructure/context.orm';
import { ContextRepository } from '../infrastructure/context.repository';
import { SyncContextConnection } from './site-context.jobs';

const SEALED = 'context connection credentials';

export interface ConnectionInput {
  connector?: unknown;
  setupSettings?: unknown;
  usageSettings?: unknown;
  filter?: unknown;
  label?: unknown;
}

/**
 * A site's context connections (organization admins: they hold credentials, sealed with SECRETS_KEY
 * and never shown). `builtin:website` connections are pulled by this server (a JSON feed of records
 * at their address, through the guarded fetcher); `builtin:api` ones take records pushed to them;
 * the others keep their settings and report that this server does not pull from them yet.
 */
@Injectable()
export class ContextConnectionsService {
  constructor(
    private readonly repository: ContextRepository,
    private readonly access: SiteAccess,
    private readonly secrets: SecretBox,
    private readonly fetcher: GuardedFetcher,
    private readonly transactions: Transactions,
    private readonly outbox: JobOutbox,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async list(caller: User, organizationId: string, siteId: string, request: PageRequest): Promise<Page<ContextConnectionOrm>> {
    const site = await this.site(caller, organizationId, siteId, 'admin');
    return this.repository.listConnections(site, request);
  }

  async get(caller: User, organizationId: string, siteId: string, id: string): Promise<ContextConnectionOrm> {
    const site = await this.site(caller, organizationId, siteId, 'admin');
    return this.found(await this.repository.findConnection(site, id), id);
  }

  async create(caller: User, organizationId: string, siteId: string, input: ConnectionInput): Promise<ContextConnectionOrm> {
    const setup = parseSetup(input.connector, input.setupSettings);
    const usageSettings = parseUsageSettings(input.usageSettings, defaultUsageSettings());
    const filter = assertFilter(input.filter);
    const label = assertLabel(input.label);
    const site = await this.site(caller, organizationId, siteId, 'admin');
    const now = this.clock.now();
    const connection = Object.assign(new ContextConnectionOrm(), {
      id: newId(),
      organizationId,
      siteId: site,
      connector: setup.connector,
      label,
      filter,
      settings: setup.settings,
      sealedSecrets: this.seal(setup.secrets),
      usageSettings,
      status: 'pending',
      failureMessage: null,
      failureReason: null,
      records: 0,
      internal: false,
      syncedAt: null,
      createdAt: now,
      updatedAt: now,
    });
    await this.repository.saveConnection(connection);
    return connection;
  }

  /** The fields given change; a new `connector` needs its setup again; masked credentials keep their stored values. */
  async update(caller: User, organizationId: string, siteId: string, id: string, input: ConnectionInput): Promise<ContextConnectionOrm> {
    // Checked before the connection is looked up: a malformed body is a 400 whatever it names.
    if (input.usageSettings !== undefined) parseUsageSettings(input.usageSettings);
    if (input.connector !== undefined) assertConnector(input.connector);
    if (input.setupSettings !== undefined && (typeof input.setupSettings !== 'object' || input.setupSettings === null || Array.isArray(input.setupSettings))) throw new InvalidError('setupSettings: an object');
    const filter = input.filter === undefined ? undefined : assertFilter(input.filter);
    const label = input.label === undefined ? undefined : assertLabel(input.label);
    const site = await this.site(caller, organizationId, siteId, 'admin');
    return this.transactions.run(async (tx) => {
      const connection = this.found(await this.repository.findConnection(site, id, tx), id);
      if (input.connector !== undefined || input.setupSettings !== undefined) {
        const setup = parseSetup(input.connector ?? connection.connector, input.setupSettings ?? {}, this.open(connection));
        Object.assign(connection, { connector: setup.connector, settings: setup.settings, sealedSecrets: this.seal(setup.secrets) });
      }
      if (input.usageSettings !== undefined) connection.usageSettings = parseUsageSettings(input.usageSettings, connection.usageSettings);
      if (filter !== undefined) connection.filter = filter;
      if (label !== undefined) connection.label = label;
      connection.updatedAt = this.clock.now();
      await this.repository.saveConnection(connection, tx);
      return connection;
    });
  }

  async delete(caller: User, organizationId: string, siteId: string, id: string): Promise<boolean> {
    const site = await this.site(caller, organizationId, siteId, 'admin');
    return this.repository.deleteConnection(site, id);
  }

  /** `testSiteContextConnection`: whether this server can read the source with the stored settings. */
  async test(caller: User, organizationId: string, siteId: string, id: string): Promise<{ success: boolean; error?: string }> {
    const connection = await this.get(caller, organizationId, siteId, id);
    if (connection.connector === 'builtin:api' || connection.connector === 'builtin:email') return { success: true };
    if (!PULLED_CONNECTORS.has(connection.connector)) return { success: false, error: `This server does not pull from ${connection.connector}; push its records with upsertSiteContextRecords` };
    try {
      const answer = await this.fetcher.request(String(connection.settings.url), { method: 'GET', headers: { accept: 'application/json' } }, { maxBytes: 1024 * 1024, timeoutMs: 10_000, maxRedirects: 3 });
      return answer.status < 400 ? { success: true } : { success: false, error: `The address answered HTTP ${answer.status}` };
    } catch (error) {
      return { success: false, error: (error as Error).message };
    }
  }

  /** `syncSiteContextConnection`: a pull, run by the worker (400 for connections this server does not pull). */
  async sync(caller: User, organizationId: string, siteId: string, id: string): Promise<void> {
    const site = await this.site(caller, organizationId, siteId, 'admin');
    const staged = await this.transactions.run(async (tx) => {
      const connection = this.found(await this.repository.findConnection(site, id, tx), id);
      if (!PULLED_CONNECTORS.has(connection.connector)) throw new InvalidError(`This server does not pull from ${connection.connector}: push its records with upsertSiteContextRecords`);
      Object.assign(connection, { status: 'syncing', updatedAt: this.clock.now() });
      await this.repository.saveConnection(connection, tx);
      return this.outbox.stage(tx, SyncContextConnection, [{ payload: { connectionId: connection.id } }]);
    });
    await this.outbox.release(staged);
  }

  /** The stored credentials in clear (only to reach the source, through the guarded fetcher). */
  open(connection: ContextConnectionOrm): Record<string, string> {
    return connection.sealedSecrets ? (JSON.parse(this.secrets.open(connection.sealedSecrets)) as Record<string, string>) : {};
  }

  private seal(secrets: Record<string, string>): string | null {
    return Object.keys(secrets).length ? this.secrets.seal(JSON.stringify(secrets), SEALED) : null;
  }

  private found(connection: ContextConnectionOrm | null, id: string): ContextConnectionOrm {
    if (!connection) throw NotFoundError.of('Context connection', id);
    return connection;
  }

  private async site(caller: User, organizationId: string, siteId: string, minimum: 'admin' | 'edit' | 'read'): Promise<string> {
    return (await this.access.read(caller, organizationId, siteId, minimum)).site.id;
  }
}
