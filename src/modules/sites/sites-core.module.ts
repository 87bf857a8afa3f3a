import { Module, OnModuleInit } from '@nestjs/common';
import { OpenAPIChanges } from '../openapi/application/openapi-changes';
import { OpenAPIModule } from '../openapi/openapi.module';
import { SpacesService } from '../spaces/application/spaces.service';
import { SpacesModule } from '../spaces/spaces.module';
import { PublishedChanges } from './infrastructure/published-changes';
import { SitesRepository } from './infrastructure/sites.repository';

/**
 * Sites' storage, and the rule that a site's version follows the spaces it shows and the OpenAPI
 * specs its pages embed, so readers' cached pages and ETags change with them. Imported by the API (SitesModule) and by the worker,
 * whose jobs (Git Sync, translations) move spaces' content too.
 */
@Module({
  imports: [SpacesModule, OpenAPIModule],
  providers: [SitesRepository, PublishedChanges],
  exports: [SitesRepository, PublishedChanges],
})
export class SitesCoreModule implements OnModuleInit {
  constructor(
    private readonly spaces: SpacesService,
    private readonly sites: SitesRepository,
    private readonly specs: OpenAPIChanges,
  ) {}

  onModuleInit(): void {
    this.spaces.onChange((change, tx) => this.sites.bumpVersions(change, tx));
    // Pages embed the current version of the organization's OpenAPI specs.
    this.specs.onChange((organizationId, tx) => this.sites.bumpVersions({ organizationId }, tx));
  }
}
