import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { APP_CONFIG, AppConfig, CLOCK, Clock } from '@app/common';
import { HandlesJob, JobHandler } from '../../../jobs/job-handler';
import { JobPort } from '../../../jobs/job-port';
import { SiteScansService } from '../application/site-scans.service';
import { ConnectionPuller } from '../application/connection-puller.service';
import { DraftFindingFix, DraftFindingFixPayload, ScanDueSites, ScanSite, ScanSitePayload, SyncContextConnection, SyncContextConnectionPayload } from '../application/site-context.jobs';
import { SiteFindingsService } from '../application/site-findings.service';
import { SiteScanner } from '../application/site-scanner.service';

@HandlesJob(ScanSite)
export class ScanSiteHandler implements JobHandler<ScanSitePayload> {
  constructor(private readonly scanner: SiteScanner) {}

  handle(payload: ScanSitePayload): Promise<unknown> {
    return this.scanner.run(payload.scanId);
  }
}

@HandlesJob(SyncContextConnection)
export class SyncContextConnectionHandler implements JobHandler<SyncContextConnectionPayload> {
  constructor(private readonly puller: ConnectionPuller) {}

  handle(payload: SyncContextConnectionPayload): Promise<unknown> {
    return this.puller.pull(payload.connectionId);
  }
}

@HandlesJob(DraftFindingFix)
export class DraftFindingFixHandler implements JobHandler<DraftFindingFixPayload> {
  constructor(private readonly findings: SiteFindingsService) {}

  handle(payload: DraftFindingFixPayload): Promise<unknown> {
    return this.findings.draft(payload);
  }
}

/** The periodic pass: the evidence since the previous one (one interval back, so a late pass misses nothing it overlaps). */
@HandlesJob(ScanDueSites)
export class ScanDueSitesHandler implements JobHandler<Record<string, never>> {
  constructor(
    private readonly scans: SiteScansService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async handle(): Promise<{ started: number }> {
    const since = new Date(this.clock.now().getTime() - Math.max(this.config.siteScansEveryMs, 60_000));
    return { started: await this.scans.startDue(since) };
  }
}

/** Schedules the periodic pass (an upsert: every worker does it at start); SITE_SCANS_EVERY_MS=0 turns it off. */
@Injectable()
export class ScanDueSitesScheduler implements OnApplicationBootstrap {
  constructor(
    private readonly jobs: JobPort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.siteScansEveryMs > 0) await this.jobs.schedule(ScanDueSites, { key: ScanDueSites.name, everyMs: this.config.siteScansEveryMs }, {});
  }
}
