import { Module } from '@nestjs/common';
import { ChangeRequestsModule } from '../change-requests/change-requests.module';
import { ContentCoreModule } from '../content/content-core.module';
import { ContentReaderModule } from '../content/content-reader.module';
import { OrganizationPresenter } from '../organizations/api/organization.presenter';
import { OrganizationsModule } from '../organizations/organizations.module';
import { SpacePresenter } from '../spaces/api/space.presenter';
import { SitesModule } from '../sites/sites.module';
import { SpacesModule } from '../spaces/spaces.module';
import { LinkLocationPresenter } from './api/link-location.presenter';
import { LinksController } from './api/links.controller';
import { SearchController } from './api/search.controller';
import { SearchPresenter } from './api/search.presenter';
import { LinksService } from './application/links.service';
import { SearchService } from './application/search.service';
import { ChangeRequestHeadsReader } from './infrastructure/change-request-heads.reader';
import { SearchQueriesRepository } from './infrastructure/search-queries.repository';
import { SearchCoreModule } from '../search-index/search-core.module';

/**
 * Search and links over HTTP: space and organization search, link lists with stats, backlinks
 * of pages and files, for spaces and change requests. The Organization and Space objects inside
 * link locations use those modules' presenters (stateless, provided here as well).
 */
@Module({
  imports: [SearchCoreModule, ContentCoreModule, ContentReaderModule, SpacesModule, SitesModule, OrganizationsModule, ChangeRequestsModule],
  controllers: [SearchController, LinksController],
  providers: [
    SearchService,
    SearchQueriesRepository,
    LinksService,
    SearchPresenter,
    LinkLocationPresenter,
    ChangeRequestHeadsReader,
    OrganizationPresenter,
    SpacePresenter,
  ],
  exports: [SearchService],
})
export class SearchModule {}
