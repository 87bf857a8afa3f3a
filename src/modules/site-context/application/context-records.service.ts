import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, NotFoundError, Page, PageRequest, newId } from '@app/common';
import { Transactions } from '../../../database/transactions';
import { User } from '../../identity/domain/user';
import { SiteAccess } from '../../sites/application/site-access';
import { RecordInput, parseRecords } from '../domain/context-record';
import { ContextRecordOrm } from '../infrastructure/context.orm';
import { ContextRepository, KeptRecord, RecordFilters } from '../infrastructure/context.repository';
import { SiteScansService } from './site-scans.service';
import { ownConnection } from './site-scanner.service';

/** What a record says for scans: a ticket is a reader's problem (a gap), a document a report on the content. */
export function keptAs(record: RecordInput): KeptRecord {
  return { ...record, signal: record.type === 'ticket' ? 'unanswered' : 'reported', weight: 1, pages: [] };
}

/** A site's records: pushed (`upsertSiteContextRecords`, the site's `edit` role), pulled, or made by scans; read by those who see the site. */
@Injectable()
export class ContextRecordsService {
  constructor(
    private readonly repository: ContextRepository,
    private readonly access: SiteAccess,
    private readonly scans: SiteScansService,
    private readonly transactions: Transactions,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Keeps the records in the site's `builtin:api` connection (one record per id: sent again, it is replaced), then scans if the site scans automatically. */
  async upsert(caller: User, organizationId: string, siteId: string, body: unknown): Promise<void> {
    const records = parseRecords(body);
    const { site } = await this.access.read(caller, organizationId, siteId, 'edit');
    const now = this.clock.now();
    await this.transactions.run(async (tx) => {
      const connection = await this.repository.ensureOwnConnection(site.id, organizationId, 'builtin:api', 'API', () => ownConnection(now), tx);
      await this.repository.upsertRecords(connection, records.map(keptAs), records.map(() => newId()), now, tx);
    });
    await this.scans.startIfAutomatic(organizationId, site.id);
  }

  async list(caller: User, organizationId: string, siteId: string, filters: RecordFilters, request: PageRequest): Promise<Page<ContextRecordOrm>> {
    const { site } = await this.access.read(caller, organizationId, siteId);
    return this.repository.listRecords(site.id, filters, request);
  }

  async get(caller: User, organizationId: string, siteId: string, id: string): Promise<ContextRecordOrm> {
    const { site } = await this.access.read(caller, organizationId, siteId);
    const record = await this.repository.findRecord(site.id, id);
    if (!record) throw NotFoundError.of('Context record', id);
    return record;
  }
}
