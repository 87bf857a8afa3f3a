import { HandlesJob, JobHandler } from '../../../jobs/job-handler';
import { ConnectionPuller } from '../application/connection-puller.service';
import { DraftFindingFix, DraftFindingFixPayload, ScanSite, ScanSitePayload, SyncContextConnection, SyncContextConnectionPayload } from '../application/site-context.jobs';
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
