import { Module } from '@nestjs/common';
import { ChangeRequestsModule } from '../change-requests/change-requests.module';
import { ContentCoreModule } from '../content/content-core.module';
import { SearchCoreModule } from '../search-index/search-core.module';
import { SitesModule } from '../sites/sites.module';
import { SpacesModule } from '../spaces/spaces.module';
import { ImportRunPresenter } from './api/import-run.presenter';
import { ImportRunsController } from './api/import-runs.controller';
import { ContentImporter } from './application/content-importer.service';
import { ImportRunsService } from './application/import-runs.service';
import { ImportRunsRepository } from './infrastructure/import-runs.repository';

/** Content imports from websites: the runs API, and the importer the worker uses. */
@Module({
  imports: [SpacesModule, ChangeRequestsModule, SitesModule, ContentCoreModule, SearchCoreModule],
  controllers: [ImportRunsController],
  providers: [ImportRunsService, ImportRunsRepository, ImportRunPresenter, ContentImporter],
  exports: [ContentImporter],
})
export class ImportsModule {}
