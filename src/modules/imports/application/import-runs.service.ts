import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, NotFoundError, Page, PageRequest, newId } from '@app/common';
import { Transactions } from '../../../database/transactions';
import { JobOutbox } from '../../../jobs/outbox/job-outbox';
import { AccessService } from '../../access/application/access.service';
import { ChangeRequestsService } from '../../change-requests/application/change-requests.service';
import { User } from '../../identity/domain/user';
import { SitesService } from '../../sites/application/sites.service';
import { SpacesService } from '../../spaces/application/spaces.service';
import { ImportRun, ImportStatusFilter, parseImportRequest } from '../domain/import-run';
import { ImportRunsRepository } from '../infrastructure/import-runs.repository';
import { ImportContent } from './imports.jobs';

export interface ImportRunListFilters {
  space?: string;
  changeRequest?: string;
  site?: string;
  status?: ImportStatusFilter;
}

/**
 * Content import runs (GitBook's `imports`): a member with `edit` on a space asks for a website to
 * be imported into it (at its root, under a page, or into an open change request); the worker
 * reads the site and writes its pages as one revision (ContentImporter). Members of the
 * organization (not guests) list and read its runs; whoever may edit the target space cancels one.
 */
@Injectable()
export class ImportRunsService {
  constructor(
    private readonly runs: ImportRunsRepository,
    private readonly spaces: SpacesService,
    private readonly changeRequests: ChangeRequestsService,
    private readonly sites: SitesService,
    private readonly access: AccessService,
    private readonly outbox: JobOutbox,
    private readonly transactions: Transactions,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async start(caller: User, organizationId: string, body: { source?: unknown; target?: unknown; site?: unknown }): Promise<ImportRun> {
    const { source, target, site } = parseImportRequest(body);
    await this.access.requireMember(caller, organizationId);
    const space = await this.spaces.get(caller, target.space);
    if (space.space.organizationId !== organizationId) throw NotFoundError.of('Space', target.space);
    this.changeRequests.assertCanEdit(space);
    if (target.changeRequest) {
      const { changeRequest } = await this.changeRequests.resolve(caller, target.space, target.changeRequest);
      changeRequest.assertActive('edited');
      target.changeRequest = changeRequest.id;
    }
    const now = this.clock.now();
    const run = new ImportRun({
      id: newId(),
      organizationId,
      status: 'pending',
      source,
      target,
      siteId: site ? (await this.sites.get(caller, organizationId, site)).site.id : await this.onlySiteShowing(caller, organizationId, target.space),
      createdBy: caller.id,
      createdAt: now,
      updatedAt: now,
      startedAt: null,
      completedAt: null,
      reason: null,
      pages: [],
      skipped: [],
    });
    const staged = await this.transactions.run(async (tx) => {
      await this.runs.insert(run, tx);
      return this.outbox.stage(tx, ImportContent, [{ payload: { runId: run.id }, options: { jobId: run.id } }]);
    });
    await this.outbox.release(staged);
    return run;
  }

  async list(caller: User, organizationId: string, filters: ImportRunListFilters, request: PageRequest): Promise<Page<ImportRun>> {
    await this.requireOrgMember(caller, organizationId);
    return this.runs.list(organizationId, { spaceId: filters.space, changeRequestId: filters.changeRequest, siteId: filters.site, status: filters.status }, request);
  }

  async get(caller: User, organizationId: string, runId: string): Promise<ImportRun> {
    await this.requireOrgMember(caller, organizationId);
    const run = await this.runs.findInOrganization(organizationId, runId);
    if (!run) throw NotFoundError.of('Import run', runId);
    return run;
  }

  /** Stops a pending or running import: the worker checks between pages and writes nothing once it is cancelled. */
  async cancel(caller: User, organizationId: string, runId: string): Promise<ImportRun> {
    const found = await this.get(caller, organizationId, runId);
    this.changeRequests.assertCanEdit(await this.spaces.get(caller, found.toState().target.space));
    return this.transactions.run(async (tx) => {
      const run = (await this.runs.lock(runId, tx))!;
      run.cancel(this.clock.now());
      await this.runs.save(run, tx);
      return run;
    });
  }

  /** Members with an organization role; guests, who see only what is shared with them, get 404 like strangers. */
  private async requireOrgMember(caller: User, organizationId: string): Promise<void> {
    const context = await this.access.requireMember(caller, organizationId);
    if (!context.orgRole) throw NotFoundError.of('Organization', organizationId);
  }

  /** The site the space belongs to when it belongs to exactly one the caller can see. */
  private async onlySiteShowing(caller: User, organizationId: string, spaceId: string): Promise<string | null> {
    try {
      const page = await this.sites.list(caller, organizationId, { spaceId }, { limit: 2 });
      return page.items.length === 1 ? page.items[0].site.id : null;
    } catch (error) {
      if (error instanceof NotFoundError) return null;
      throw error;
    }
  }
}
