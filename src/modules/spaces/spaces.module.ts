import { SpaceEventResource } from './api/space.event-resource';
import { Module } from '@nestjs/common';
import { ContentCoreModule } from '../content/content-core.module';
import { SearchCoreModule } from '../search-index/search-core.module';
import { SpacePresenter } from './api/space.presenter';
import { SpacesController } from './api/spaces.controller';
import { SpacePurgeService } from './application/space-purge.service';
import { SpacesService } from './application/spaces.service';
import { SpacesRepository } from './infrastructure/spaces.repository';

/** Space lifecycle over HTTP. Other modules use SpacesService; job handlers live in SpacesWorkerModule. */
@Module({
  imports: [ContentCoreModule, SearchCoreModule],
  controllers: [SpacesController],
  providers: [SpaceEventResource, SpacesService, SpacePurgeService, SpacesRepository, SpacePresenter],
  exports: [SpacesService, SpacePurgeService, SpacePresenter],
})
export class SpacesModule {}
