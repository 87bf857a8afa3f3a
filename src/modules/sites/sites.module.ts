import { SiteEventResource } from './api/site.event-resource';
import { Module } from '@nestjs/common';
import { OrganizationsModule } from '../organizations/organizations.module';
import { SpacesModule } from '../spaces/spaces.module';
import { TeamsModule } from '../teams/teams.module';
import { SiteGrantsService } from './application/site-grants.service';
import { SiteGrantsRepository } from './infrastructure/site-grants.repository';
import { PublishedUrlsController } from './api/published-urls.controller';
import { ShareLinksController } from './api/share-links.controller';
import { SitePresenter } from './api/site.presenter';
import { SiteStructureController } from './api/site-structure.controller';
import { SiteExternalLinksController } from './api/site-external-links.controller';
import { SiteMcpServersController } from './api/site-mcp-servers.controller';
import { SiteMcpServerPresenter } from './api/site-mcp-server.presenter';
import { SiteChannelsController } from './api/site-channels.controller';
import { CustomHostnamesController } from './api/custom-hostnames.controller';
import { CustomFontsController } from './api/custom-fonts.controller';
import { CustomFontPresenter } from './api/custom-font.presenter';
import { CustomFontsService } from './application/custom-fonts.service';
import { FilesModule } from '../content/files.module';
import { StorageUploadsModule } from '../content/storage-uploads.module';
import { CustomHostnamePresenter } from './api/custom-hostname.presenter';
import { CustomHostnamesService } from './application/custom-hostnames.service';
import { SiteChannelPresenter } from './api/site-channel.presenter';
import { SiteChannelsService } from './application/site-channels.service';
import { SiteChannelsRepository } from './infrastructure/site-channels.repository';
import { SiteExternalLinksService } from './application/site-external-links.service';
import { SiteMcpServersService } from './application/site-mcp-servers.service';
import { SiteMcpTools } from './application/site-mcp-tools';
import { SiteMcpServersRepository } from './infrastructure/site-mcp-servers.repository';
import { SiteStyleguideController } from './api/site-styleguide.controller';
import { SitePreviewController } from './api/site-preview.controller';
import { SiteUsersController } from './api/site-users.controller';
import { SiteUserPresenter } from './api/site-user.presenter';
import { SitesController } from './api/sites.controller';
import { PublishedSitesService } from './application/published-sites.service';
import { ShareLinksService } from './application/share-links.service';
import { SiteAccess } from './application/site-access';
import { SiteStructures } from './application/site-structures';
import { SiteApiTokens } from './application/site-api-tokens';
import { SitePreviewService } from './application/site-preview.service';
import { SiteAudienceService } from './application/site-audience.service';
import { SitePreviews } from './application/site-previews';
import { SiteTokenVerifier } from '../identity/application/site-token-verifier';
import { SiteStructureService } from './application/site-structure.service';
import { SiteSpaceCopiesService } from './application/site-space-copies.service';
import { SiteStyleguideService } from './application/site-styleguide.service';
import { SitesService } from './application/sites.service';
import { VisitorAuthService } from './application/visitor-auth.service';
import { SitesCoreModule } from './sites-core.module';
import { SitesDirectoryModule } from './sites-directory.module';

/** Sites: the 27 endpoints and GitBook's later additions, audiences, and the resolution of published addresses. */
@Module({
  imports: [SpacesModule, OrganizationsModule, TeamsModule, SitesCoreModule, SitesDirectoryModule, FilesModule, StorageUploadsModule],
  controllers: [SitesController, SiteStructureController, SiteExternalLinksController, SiteMcpServersController, SiteChannelsController, CustomHostnamesController, CustomFontsController, SiteStyleguideController, ShareLinksController, PublishedUrlsController, SitePreviewController, SiteUsersController],
  providers: [SiteEventResource, SiteMcpTools, SitesService, SiteStructureService, SiteSpaceCopiesService, SiteExternalLinksService, SiteMcpServersService, SiteMcpServersRepository, SiteMcpServerPresenter, SiteChannelsService, SiteChannelsRepository, SiteChannelPresenter, CustomHostnamesService, CustomHostnamePresenter, CustomFontsService, CustomFontPresenter, SiteStyleguideService, ShareLinksService, VisitorAuthService, PublishedSitesService, SiteAccess, SitePresenter, SiteApiTokens, SitePreviews, SitePreviewService, SiteAudienceService, SiteUserPresenter, SiteGrantsService, SiteGrantsRepository, SiteStructures, { provide: SiteTokenVerifier, useExisting: SiteApiTokens }],
  exports: [PublishedSitesService, SitesService, SiteAccess, SiteMcpTools, SiteStructureService, SiteStyleguideService, SitePresenter, SitesCoreModule],
})
export class SitesModule {}
