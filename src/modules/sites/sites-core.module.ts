import { Module, OnModuleInit } from '@nestjs/common';
import { SpacesService } from '../spaces/application/spaces.service';
import { SpacesModule } from '../spaces/spaces.module';
import { PublishedChanges } from './infrastructure/published-changes';
import { SitesRepository } from './infrastructure/sites.repository';

/**
 * Sites' storage, and the rule that a site's version follows the spaces it shows, so readers'
 * cached pages and ETags change with them. Imported by the API (SitesModule) and by the worker,
 * whose jobs (Git Sync, translations) move spaces' content too.
 */
@Module({
  imports: [SpacesModule],
  providers: [SitesRepository, PublishedChanges],
  exports: [SitesRepository, PublishedChanges],
})
export class SitesCoreModule implements OnModuleInit {
  constructor(
    private readonly spaces: SpacesService,
    private readonly sites: SitesRepository,
  ) {}

  onModuleInit(): void {
    this.spaces.onChange((change, tx) => this.sites.bumpVersions(change, tx));
  }
}
