import { Module } from '@nestjs/common';
import { ScanSiteHandler, SyncContextConnectionHandler } from './infrastructure/site-context.handlers';
import { SiteContextModule } from './site-context.module';

/** Scans and connection pulls as the worker runs them. */
@Module({ imports: [SiteContextModule], providers: [ScanSiteHandler, SyncContextConnectionHandler] })
export class SiteContextWorkerModule {}
