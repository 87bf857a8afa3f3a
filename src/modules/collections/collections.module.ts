import { Module } from '@nestjs/common';
import { SpacesModule } from '../spaces/spaces.module';
import { CollectionPresenter } from './api/collection.presenter';
import { CollectionsController } from './api/collections.controller';
import { CollectionsService } from './application/collections.service';
import { CollectionsRepository } from './infrastructure/collections.repository';

@Module({
  imports: [SpacesModule],
  controllers: [CollectionsController],
  providers: [CollectionsService, CollectionsRepository, CollectionPresenter],
  exports: [CollectionsService, CollectionPresenter],
})
export class CollectionsModule {}
