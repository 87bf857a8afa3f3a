import { Module } from '@nestjs/common';
import { ContentCoreModule } from '../content/content-core.module';
import { ContentReaderModule } from '../content/content-reader.module';
import { SitesModule } from '../sites/sites.module';
import { SpacesModule } from '../spaces/spaces.module';
import { SiteRedirectsController } from './api/site-redirects.controller';
import { SiteRedirectPresenter } from './api/site-redirect.presenter';
import { SiteRedirectsService } from './application/site-redirects.service';
import { SiteRedirectsRepository } from './infrastructure/site-redirects.repository';

/** Site redirects: the six endpoints, and the lookup published sites make for paths with no page. */
@Module({
  imports: [SitesModule, SpacesModule, ContentCoreModule, ContentReaderModule],
  controllers: [SiteRedirectsController],
  providers: [SiteRedirectsService, SiteRedirectsRepository, SiteRedirectPresenter],
  exports: [SiteRedirectsService],
})
export class SiteRedirectsModule {}
