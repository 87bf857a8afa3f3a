import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { pageInMemory, toEnvelope } from '@app/common';
import { CurrentUser } from '../../identity/api/auth.decorators';
import { User } from '../../identity/domain/user';
import { InstalledIntegrationsService } from '../application/installed-integrations.service';
import { IntegrationsService } from '../application/integrations.service';
import type { IntegrationOrm } from '../infrastructure/integration.orm';
import { InstallationsStatusQueryDto, IntegrationSearchDto, OrganizationInstallationsQueryDto, SiteIntegrationSearchDto } from './dto/integration.dto';
import { IntegrationPresenter } from './integration.presenter';
import { searchOf } from './integrations.controller';

/** What is installed in an organization, on a space and on a site. */
@ApiTags('integrations')
@ApiBearerAuth()
@Controller()
export class InstalledIntegrationsController {
  constructor(
    private readonly integrations: IntegrationsService,
    private readonly installed: InstalledIntegrationsService,
    private readonly presenter: IntegrationPresenter,
  ) {}

  @Get('orgs/:organizationId/integrations')
  @ApiOperation({ operationId: 'listOrganizationIntegrations', summary: 'Integrations installed in the organization (its members)' })
  async listInOrganization(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Query() query: IntegrationSearchDto) {
    await this.installed.assertMember(user, organizationId);
    const page = await this.integrations.list(user, searchOf(query), query.toPageRequest(), organizationId);
    const owners = await this.integrations.owners(user, page.items.map((v) => v.integration));
    return toEnvelope(page, (view) => this.presenter.integration(view, owners.get(view.integration.ownerOrganizationId)!));
  }

  @Get('orgs/:organizationId/installations')
  @ApiOperation({ operationId: 'listOrganizationInstallations', summary: "The organization's installations with their integrations (its admins)" })
  async installations(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Query() query: OrganizationInstallationsQueryDto) {
    const page = await this.installed.organizationInstallations(user, organizationId, query.search, query.toPageRequest());
    const owners = await this.integrations.owners(user, page.items.map((i) => i.integration.integration));
    return toEnvelope(page, (item) => ({
      installation: this.presenter.installation(item.integration.integration, item.installation, item.spaces),
      integration: this.presenter.integration(item.integration, owners.get(item.integration.integration.ownerOrganizationId)!),
    }));
  }

  @Get('orgs/:organizationId/integrations/installations-status')
  @ApiOperation({ operationId: 'listOrganizationIntegrationsStatus', summary: "Installations in the organization (target=organization), or those reaching a space or site, with their status" })
  async statuses(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Query() query: InstallationsStatusQueryDto) {
    const page = await this.installed.statuses(user, organizationId, { target: query.target, space: query.space, site: query.site }, query.toPageRequest());
    const owners = await this.integrations.owners(user, page.items.map((i) => i.integration.integration));
    return toEnvelope(page, (item) => ({ status: item.status, integration: this.presenter.integration(item.integration, owners.get(item.integration.integration.ownerOrganizationId)!), target: item.target }));
  }

  @Get('orgs/:organizationId/integrations/:integrationName/installation_status')
  @ApiOperation({ operationId: 'getOrganizationIntegrationStatus' })
  async status(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('integrationName') name: string) {
    return { status: await this.installed.status(user, organizationId, name) };
  }

  @Get('orgs/:organizationId/sites/:siteId/integrations')
  @ApiOperation({ operationId: 'listSiteIntegrations', summary: 'Integrations installed on the site' })
  async onSite(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Query() query: SiteIntegrationSearchDto) {
    return this.presentAll(user, await this.installed.onSite(user, organizationId, siteId, query.search));
  }

  @Get('orgs/:organizationId/sites/:siteId/integration-scripts')
  @ApiOperation({ operationId: 'listSiteIntegrationScripts', summary: "Scripts the site's pages load: integrations with `site:script:inject` installed on it, each served by its own service and allowed only its declared sources" })
  async scripts(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string) {
    return (await this.installed.listSiteScripts(user, organizationId, siteId)).map((s) => ({ script: s.script, contentSecurityPolicy: s.contentSecurityPolicy, cookies: s.cookies }));
  }

  @Get('spaces/:spaceId/integrations')
  @ApiOperation({ operationId: 'listSpaceIntegrations', summary: 'Integrations installed on the space' })
  async onSpace(@CurrentUser() user: User, @Param('spaceId') spaceId: string, @Query() query: SiteIntegrationSearchDto) {
    return this.presentAll(user, await this.installed.onSpace(user, spaceId, query.search));
  }

  @Get('spaces/:spaceId/integration-blocks')
  @ApiOperation({ operationId: 'listSpaceIntegrationsBlocks', summary: 'The blocks of the integrations installed on the space' })
  async blocks(@CurrentUser() user: User, @Param('spaceId') spaceId: string) {
    return (await this.installed.onSpace(user, spaceId)).filter((i) => i.manifest.blocks.length > 0).map((i) => ({ name: i.name, blocks: i.manifest.blocks }));
  }

  private async presentAll(user: User, integrations: IntegrationOrm[]) {
    const owners = await this.integrations.owners(user, integrations);
    const page = pageInMemory(integrations, (i) => i.id, { limit: 1000 });
    return toEnvelope(page, (integration) => this.presenter.integration({ integration, admin: false }, owners.get(integration.ownerOrganizationId)!));
  }
}
