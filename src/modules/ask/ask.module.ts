import { Module } from '@nestjs/common';
import { SearchModule } from '../search/search.module';
import { SpacesModule } from '../spaces/spaces.module';
import { AskController } from './api/ask.controller';
import { SiteAskController } from './api/site-ask.controller';
import { AskService } from './application/ask.service';

/** Ask: questions answered from the documentation a caller can read (retrieval, then the model or the passages). */
@Module({
  imports: [SearchModule, SpacesModule],
  controllers: [AskController, SiteAskController],
  providers: [AskService],
  exports: [AskService],
})
export class AskModule {}
