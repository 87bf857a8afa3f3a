import { Module } from '@nestjs/common';
import { ChangeRequestsModule } from '../change-requests/change-requests.module';
import { CollectionsModule } from '../collections/collections.module';
import { ContentModule } from '../content-api/content.module';
import { SitesModule } from '../sites/sites.module';
import { SpacesModule } from '../spaces/spaces.module';
import { ContentByUrlPresenter } from './api/content-by-url.presenter';
import { SpaceEmbedsController } from './api/space-embeds.controller';
import { UrlsController } from './api/urls.controller';
import { ContentByUrlService } from './application/content-by-url.service';
import { EmbedsService } from './application/embeds.service';

/** Addresses in, content out: `GET /urls/content`, `GET /urls/embed` and `GET /spaces/{spaceId}/embed`. */
@Module({
  imports: [CollectionsModule, SpacesModule, ChangeRequestsModule, ContentModule, SitesModule],
  controllers: [UrlsController, SpaceEmbedsController],
  providers: [ContentByUrlService, EmbedsService, ContentByUrlPresenter],
})
export class UrlsModule {}
