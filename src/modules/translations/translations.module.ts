import { TranslationEventResource } from './api/translation.event-resource';
import { Module } from '@nestjs/common';
import { ChangeRequestsModule } from '../change-requests/change-requests.module';
import { ContentCoreModule } from '../content/content-core.module';
import { SearchCoreModule } from '../search-index/search-core.module';
import { SpacesModule } from '../spaces/spaces.module';
import { GlossaryController } from './api/glossary.controller';
import { GlossaryPresenter } from './api/glossary.presenter';
import { TranslationPresenter } from './api/translation.presenter';
import { TranslationsController } from './api/translations.controller';
import { GlossaryService } from './application/glossary.service';
import { TranslationRunner } from './application/translation-runner.service';
import { TranslationsService } from './application/translations.service';
import { GlossaryRepository } from './infrastructure/glossary.repository';
import { TranslationsRepository } from './infrastructure/translations.repository';

/** Translations of spaces: the API, and the runner the worker uses. */
@Module({
  imports: [SpacesModule, ContentCoreModule, ChangeRequestsModule, SearchCoreModule],
  controllers: [TranslationsController, GlossaryController],
  providers: [TranslationEventResource, TranslationsService, TranslationsRepository, TranslationPresenter, TranslationRunner, GlossaryService, GlossaryRepository, GlossaryPresenter],
  exports: [TranslationRunner],
})
export class TranslationsModule {}
