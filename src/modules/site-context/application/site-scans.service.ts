import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, NotFoundError, Page, PageRequest, newId } from '@app/common';
import { Transactions } from '../../../database/transactions';
import { JobOutbox } from '../../../jobs/outbox/job-outbox';
import { SiteAgentsService } from '../../agents/application/site-agents.service';
import { User } from '../../identity/domain/user';
import { SiteAccess } from '../../sites/application/site-access';
import { SiteQuestionsService } from '../../ask';
import { ContextRepository } from '../infrastructure/context.repository';
import { SiteScanOrm } from '../infrastructure/findings.orm';
import { FindingsRepository } from '../infrastructure/findings.repository';
import { ScanSite } from './site-context.jobs';

/** A site's scans: started by its team (our addition) or by new records, run by the worker. */
@Injectable()
export class SiteScansService {
  constructor(
    private readonly findings: FindingsRepository,
    private readonly access: SiteAccess,
    private readonly agents: SiteAgentsService,
    private readonly questions: SiteQuestionsService,
    private readonly context: ContextRepository,
    private readonly transactions: Transactions,
    private readonly outbox: JobOutbox,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async list(caller: User, organizationId: string, siteId: string, filters: { topic?: string; status?: string }, request: PageRequest): Promise<Page<SiteScanOrm>> {
    const { site } = await this.access.read(caller, organizationId, siteId);
    return this.findings.listScans(site.id, filters, request);
  }

  async get(caller: User, organizationId: string, siteId: string, id: string): Promise<SiteScanOrm> {
    const { site } = await this.access.read(caller, organizationId, siteId);
    const scan = await this.findings.findScan(site.id, id);
    if (!scan) throw NotFoundError.of('Site scan', id);
    return scan;
  }

  /** Starts a scan now (the site's `edit` role), whatever the settings say. */
  async startNow(caller: User, organizationId: string, siteId: string): Promise<SiteScanOrm> {
    const { site } = await this.access.read(caller, organizationId, siteId, 'edit');
    return this.start(organizationId, site.id);
  }

  /** Starts a scan when the site's settings scan automatically (`scans.topics: auto`); new evidence calls it. */
  async startIfAutomatic(organizationId: string, siteId: string): Promise<void> {
    const { settings } = await this.agents.settingsOf(siteId);
    if (settings.scans.topics === 'auto') await this.start(organizationId, siteId);
  }

  /**
   * The worker's periodic pass: a scan for every site that scans automatically and got answers or
   * records since `since` (the previous pass). Returns how many were started.
   */
  async startDue(since: Date): Promise<number> {
    const due = new Map<string, string>();
    for (const { siteId, organizationId } of [...(await this.questions.sitesAnsweredSince(since)), ...(await this.context.sitesWithRecordsSince(since, 1000))]) due.set(siteId, organizationId);
    let started = 0;
    for (const [siteId, organizationId] of due) {
      const { settings } = await this.agents.settingsOf(siteId);
      if (settings.scans.topics !== 'auto') continue;
      await this.start(organizationId, siteId);
      started++;
    }
    return started;
  }

  private async start(organizationId: string, siteId: string): Promise<SiteScanOrm> {
    const now = this.clock.now();
    const scan = Object.assign(new SiteScanOrm(), { id: newId(), organizationId, siteId, status: 'pending', topicId: null, findings: { low: 0, medium: 0, high: 0 }, failureMessage: null, createdAt: now, startedAt: null, finishedAt: null });
    const staged = await this.transactions.run(async (tx) => {
      await this.findings.saveScan(scan, tx);
      return this.outbox.stage(tx, ScanSite, [{ payload: { scanId: scan.id } }]);
    });
    await this.outbox.release(staged);
    return scan;
  }
}
