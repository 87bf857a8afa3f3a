import { Module, OnModuleInit } from '@nestjs/common';
import { OpenAPIChanges } from '../openapi/application/openapi-changes';
import { OpenAPIModule } from '../openapi/openapi.module';
import { SpacesService } from '../spaces/application/spaces.service';
import { SpacesModule } from '../spaces/spaces.module';
import { FileReferences } from '../content/application/file-references';
import { FilesModule } from '../content/files.module';
import { CustomFontsRepository } from './infrastructure/custom-fonts.repository';
import { PublishedChanges } from './infrastructure/published-changes';
import { SitesRepository } from './infrastructure/sites.repository';

/**
 * Sites' storage (custom fonts' too, whose files the file sweep must keep), and the rule that a site's version follows the spaces it shows and the OpenAPI
 * specs its pages embed, so readers' cached pages and ETags change with them. Imported by the API (SitesModule) and by the worker,
 * whose jobs (Git Sync, translations) move spaces' content too.
 */
@Module({
  imports: [SpacesModule, OpenAPIModule, FilesModule],
  providers: [SitesRepository, PublishedChanges, CustomFontsRepository],
  exports: [SitesRepository, PublishedChanges, CustomFontsRepository],
})
export class SitesCoreModule implements OnModuleInit {
  constructor(
    private readonly spaces: SpacesService,
    private readonly sites: SitesRepository,
    private readonly specs: OpenAPIChanges,
    private readonly fileReferences: FileReferences,
    private readonly fonts: CustomFontsRepository,
  ) {}

  onModuleInit(): void {
    this.spaces.onChange((change, tx) => this.sites.bumpVersions(change, tx));
    // Pages embed the current version of the organization's OpenAPI specs.
    this.specs.onChange((organizationId, tx) => this.sites.bumpVersions({ organizationId }, tx));
    // Custom fonts' files are named by fonts, not revisions: the file sweep must keep them.
    this.fileReferences.register((keys) => this.fonts.referencedKeys(keys));
  }
}
