import { TranslationEventResource } from './api/translation.event-resource';
import { Module } from '@nestjs/common';
import { ChangeRequestsModule } from '../change-requests/change-requests.module';
import { ContentCoreModule } from '../content/content-core.module';
import { SearchCoreModule } from '../search/search-core.module';
import { SpacesModule } from '../spaces/spaces.module';
import { TranslationPresenter } from './api/translation.presenter';
import { TranslationsController } from './api/translations.controller';
import { TranslationRunner } from './application/translation-runner.service';
import { TranslationsService } from './application/translations.service';
import { TranslationsRepository } from './infrastructure/translations.repository';

/** Translations of spaces: the API, and the runner the worker uses. */
@Module({
  imports: [SpacesModule, ContentCoreModule, ChangeRequestsModule, SearchCoreModule],
  controllers: [TranslationsController],
  providers: [TranslationEventResource, TranslationsService, TranslationsRepository, TranslationPresenter, TranslationRunner],
  exports: [TranslationRunner],
})
export class TranslationsModule {}
