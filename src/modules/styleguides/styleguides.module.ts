import { Module } from '@nestjs/common';
import { ChangeRequestsModule } from '../change-requests/change-requests.module';
import { ContentCoreModule } from '../content/content-core.module';
import { SitesModule } from '../sites/sites.module';
import { SpacesModule } from '../spaces/spaces.module';
import { StyleguideRunPresenter } from './api/styleguide-run.presenter';
import { StyleguideRunsController } from './api/styleguide-runs.controller';
import { StyleguideChecker } from './application/styleguide-checker.service';
import { StyleguideRunsService } from './application/styleguide-runs.service';
import { StyleguideRunsRepository } from './infrastructure/styleguide-runs.repository';

/** Style guide check runs: the API, and the checker the worker uses. The style guide itself is the sites module's. */
@Module({
  imports: [SitesModule, SpacesModule, ChangeRequestsModule, ContentCoreModule],
  controllers: [StyleguideRunsController],
  providers: [StyleguideRunsService, StyleguideRunsRepository, StyleguideRunPresenter, StyleguideChecker],
  exports: [StyleguideChecker],
})
export class StyleguidesModule {}
