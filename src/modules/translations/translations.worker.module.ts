import { Module } from '@nestjs/common';
import { RunTranslationHandler } from './infrastructure/translation.handlers';
import { TranslationsModule } from './translations.module';

/** Translation runs as the worker runs them. */
@Module({ imports: [TranslationsModule], providers: [RunTranslationHandler] })
export class TranslationsWorkerModule {}
