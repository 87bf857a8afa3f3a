import { Module } from '@nestjs/common';
import { ContentModule } from '../content-api/content.module';
import { OpenAPIModule } from '../openapi/openapi.module';
import { SpacesModule } from '../spaces/spaces.module';
import { ComputedContentController } from './api/computed-content.controller';
import { ComputedContentPresenter } from './api/computed-content.presenter';
import { ComputedContentService } from './application/computed-content.service';

/** Computed content: what a space's computed pages expand to (`POST /spaces/{spaceId}/content/computed/...`). */
@Module({
  imports: [SpacesModule, ContentModule, OpenAPIModule],
  controllers: [ComputedContentController],
  providers: [ComputedContentService, ComputedContentPresenter],
})
export class ComputedContentModule {}
