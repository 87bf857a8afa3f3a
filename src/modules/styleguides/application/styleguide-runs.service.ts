import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, InvalidError, Page, PageRequest, newId } from '@app/common';
import { AiNotConfiguredError, AiProvider } from '../../../core/ai/ai-provider';
import { Transactions } from '../../../database/transactions';
import { JobOutbox } from '../../../jobs/outbox/job-outbox';
import { ChangeRequestView, ChangeRequestsService } from '../../change-requests/application/change-requests.service';
import { AccessService } from '../../access/application/access.service';
import { UserViewer } from '../../identity/api/user.presenter';
import { IdentityService } from '../../identity/application/identity.service';
import { User } from '../../identity/domain/user';
import { SiteStyleguideService } from '../../sites/application/site-styleguide.service';
import { SpacesService } from '../../spaces/application/spaces.service';
import { StyleguideRunOrm } from '../infrastructure/styleguide-run.orm';
import { StyleguideRunsRepository } from '../infrastructure/styleguide-runs.repository';
import { CheckStyleguide } from './styleguide.jobs';

/** A run with who started it, for a viewer (e-mail addresses as the access rules allow). */
export interface StyleguideRunView {
  run: StyleguideRunOrm;
  createdBy: User | undefined;
  viewer: UserViewer;
}

/** Spaces one run may check. */
export const MAX_SPACES_PER_RUN = 3;
export const CHECK_SUBJECT = 'Style guide check';

/**
 * Style guide check runs: a member asks for up to three of a site's spaces to be checked against
 * the site's style guide. Each space gets a change request (a new draft marked with the run, or the
 * open one an earlier check of the same site opened, taken over), and the worker has the model
 * propose fixes there (StyleguideChecker). The run, the change requests and their markers commit
 * together, under the site's lock (so two runs never open two change requests for one space); the
 * jobs are queued after.
 */
@Injectable()
export class StyleguideRunsService {
  constructor(
    private readonly repository: StyleguideRunsRepository,
    private readonly styleguides: SiteStyleguideService,
    private readonly spaces: SpacesService,
    private readonly changeRequests: ChangeRequestsService,
    private readonly ai: AiProvider,
    private readonly outbox: JobOutbox,
    private readonly transactions: Transactions,
    private readonly identity: IdentityService,
    private readonly access: AccessService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async start(caller: User, organizationId: string, siteId: string, input: { spaces?: unknown }): Promise<{ run: StyleguideRunView; changeRequests: ChangeRequestView[] }> {
    const spaceIds = parseSpaces(input.spaces);
    const target = await this.styleguides.runTarget(caller, organizationId, siteId);
    for (const spaceId of spaceIds) {
      if (spaceId === target.styleguideSpaceId) throw new InvalidError(`spaces: "${spaceId}" is the style guide itself`);
      if (!target.spaceIds.has(spaceId)) throw new InvalidError(`spaces: "${spaceId}" is not a space of this site`);
      // Refused here rather than half way through the transaction: each change request needs `edit`.
      this.changeRequests.assertCanEdit(await this.spaces.get(caller, spaceId));
    }
    if (!this.ai.configured) throw new AiNotConfiguredError();
    const run = Object.assign(new StyleguideRunOrm(), {
      id: newId(),
      organizationId,
      siteId,
      styleguideSpaceId: target.styleguideSpaceId,
      spaces: spaceIds,
      createdBy: caller.id,
      createdAt: this.clock.now(),
    });
    const opened = await this.transactions.run(async (tx) => {
      await this.styleguides.lockSite(organizationId, siteId, tx);
      await this.repository.insert(run, tx);
      const changeRequests = [];
      for (const spaceId of spaceIds) changeRequests.push(await this.changeRequests.openStyleguideCheck(caller, spaceId, { site: siteId, run: run.id }, CHECK_SUBJECT, tx));
      const staged = await this.outbox.stage(
        tx,
        CheckStyleguide,
        changeRequests.map((changeRequest) => ({ payload: { changeRequestId: changeRequest.id, runId: run.id }, options: { jobId: `${changeRequest.id}-${run.id}` } })),
      );
      return { changeRequests, staged };
    });
    await this.outbox.release(opened.staged);
    const views = await Promise.all(opened.changeRequests.map((changeRequest) => this.changeRequests.get(caller, changeRequest.spaceId, changeRequest.id)));
    return { run: (await this.views(caller, organizationId, [run]))[0], changeRequests: views };
  }

  async list(caller: User, organizationId: string, siteId: string, request: PageRequest): Promise<Page<StyleguideRunView>> {
    await this.styleguides.assertSiteVisible(caller, organizationId, siteId);
    const page = await this.repository.list(siteId, request);
    return { ...page, items: await this.views(caller, organizationId, page.items) };
  }

  private async views(caller: User, organizationId: string, runs: StyleguideRunOrm[]): Promise<StyleguideRunView[]> {
    const [users, viewer] = await Promise.all([this.identity.findByIds([...new Set(runs.map((run) => run.createdBy))]), this.access.viewerIn(caller, organizationId)]);
    return runs.map((run) => ({ run, createdBy: users.get(run.createdBy), viewer }));
  }
}

function parseSpaces(value: unknown): string[] {
  if (!Array.isArray(value) || value.length < 1 || value.length > MAX_SPACES_PER_RUN || value.some((id) => typeof id !== 'string' || !id || id.length > 64)) {
    throw new InvalidError(`spaces: an array of 1 to ${MAX_SPACES_PER_RUN} space ids`);
  }
  if (new Set(value).size !== value.length) throw new InvalidError('spaces: each space once');
  return value as string[];
}
