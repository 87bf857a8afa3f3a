import { Module } from '@nestjs/common';
import { DraftFindingFixHandler, ScanDueSitesHandler, ScanDueSitesScheduler, ScanSiteHandler, SyncContextConnectionHandler } from './infrastructure/site-context.handlers';
import { SiteContextModule } from './site-context.module';

/** Scans, connection pulls and findings' change requests as the worker runs them. */
@Module({ imports: [SiteContextModule], providers: [ScanSiteHandler, SyncContextConnectionHandler, DraftFindingFixHandler, ScanDueSitesHandler, ScanDueSitesScheduler] })
export class SiteContextWorkerModule {}
