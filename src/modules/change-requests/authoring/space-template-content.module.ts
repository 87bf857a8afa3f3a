import { Global, Module } from '@nestjs/common';
import { SpaceTemplateContent } from '../../spaces/application/space-template-content';
import { spaceTemplateContent } from './domain/template-content';

/** The built-in templates behind SpacesService's template port. */
export class BuiltInTemplateContent extends SpaceTemplateContent {
  contentFor(templateId: string, params: Record<string, unknown> | undefined, now: string) {
    return spaceTemplateContent(templateId, params, now);
  }
}

/**
 * Provides the spaces module's SpaceTemplateContent port everywhere: global, with no dependency of
 * its own, so the spaces module gets it without importing authoring. Every root module that
 * creates spaces imports it (the API, the worker, the CLI).
 */
@Global()
@Module({
  providers: [{ provide: SpaceTemplateContent, useClass: BuiltInTemplateContent }],
  exports: [SpaceTemplateContent],
})
export class SpaceTemplateContentModule {}
