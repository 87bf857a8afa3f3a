import { Module } from '@nestjs/common';
import { DnsTxtResolver } from './infrastructure/dns-txt-resolver';
import { VerifyCustomHostnameHandler } from './infrastructure/custom-hostnames.handlers';
import { SitesCoreModule } from './sites-core.module';

/** Sites' work in the worker: proving host name claims through DNS. */
@Module({ imports: [SitesCoreModule], providers: [DnsTxtResolver, VerifyCustomHostnameHandler] })
export class SitesWorkerModule {}
