import { Body, Controller, Delete, Get, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { toEnvelope } from '@app/common';
import { CurrentUser, IntegrationScopes } from '../../identity/api/auth.decorators';
import { User } from '../../identity/domain/user';
import { InstallationTokensService } from '../application/installation-tokens.service';
import { InstallationsService } from '../application/installations.service';
import { IntegrationsService } from '../application/integrations.service';
import { ExtendedQueryDto, ExternalIdQueryDto, InstallIntegrationDto, InstallOnSiteDto, InstallOnSpaceDto, UpdateInstallationDto, UpdateTargetInstallationDto } from './dto/integration.dto';
import { IntegrationPresenter } from './integration.presenter';

const MANAGERS = "The installation's organization admins; its own installation token reads it and updates its configuration and external ids.";

/** Installations of an integration on organizations, spaces and sites, and their tokens. */
@ApiTags('integrations')
@ApiBearerAuth()
@IntegrationScopes('installation')
@Controller('integrations/:integrationName')
export class InstallationsController {
  constructor(
    private readonly integrations: IntegrationsService,
    private readonly installations: InstallationsService,
    private readonly tokens: InstallationTokensService,
    private readonly presenter: IntegrationPresenter,
  ) {}

  @Get('installations')
  @ApiOperation({ operationId: 'listIntegrationInstallations', description: "All of them for the integration's publisher; those of the organizations the caller administers otherwise" })
  async list(@CurrentUser() user: User, @Param('integrationName') name: string, @Query() query: ExternalIdQueryDto) {
    const { integration } = await this.integrations.get(user, name);
    const page = await this.installations.list(user, name, query.toPageRequest(), query.externalId);
    const counts = await this.installations.spaceCounts(page.items);
    return toEnvelope(page, (n) => this.presenter.installation(integration, n, counts.get(n.id) ?? 0));
  }

  @Post('installations')
  @ApiOperation({ operationId: 'installIntegration', summary: "Install on an organization (its admins); the account configuration starts from the manifest's defaults" })
  @ApiResponse({ status: 201, description: 'Installed (200: it already was)' })
  async install(@CurrentUser() user: User, @Param('integrationName') name: string, @Body() body: InstallIntegrationDto, @Res({ passthrough: true }) res: Response) {
    const { installation, created } = await this.installations.install(user, name, body.organization);
    const { integration } = await this.integrations.get(user, name);
    const presented = this.presenter.installation(integration, installation, (await this.installations.spaceCounts([installation])).get(installation.id) ?? 0);
    res.status(created ? 201 : 200).setHeader('Location', presented.urls.location);
    return presented;
  }

  @Get('installations/:installationId')
  @ApiOperation({ operationId: 'getIntegrationInstallationById', description: MANAGERS })
  async get(@CurrentUser() user: User, @Param('integrationName') name: string, @Param('installationId') id: string) {
    const { integration, installation } = await this.installations.get(user, name, id);
    return this.presenter.installation(integration, installation, (await this.installations.spaceCounts([installation])).get(id) ?? 0);
  }

  @Patch('installations/:installationId')
  @ApiOperation({ operationId: 'updateIntegrationInstallation', description: `${MANAGERS} The configuration is checked against the manifest's account schema.` })
  async update(@CurrentUser() user: User, @Param('integrationName') name: string, @Param('installationId') id: string, @Body() body: UpdateInstallationDto) {
    const installation = await this.installations.update(user, name, id, body);
    const { integration } = await this.integrations.get(user, name);
    return this.presenter.installation(integration, installation, (await this.installations.spaceCounts([installation])).get(id) ?? 0);
  }

  @Delete('installations/:installationId')
  @ApiOperation({ operationId: 'uninstallIntegration', summary: 'Uninstall: its spaces, sites and tokens go' })
  @ApiResponse({ status: 205, description: 'Uninstalled' })
  async uninstall(@CurrentUser() user: User, @Param('integrationName') name: string, @Param('installationId') id: string, @Res({ passthrough: true }) res: Response) {
    res.status((await this.installations.uninstall(user, name, id)) ? 205 : 204);
  }

  @Post('installations/:installationId/tokens')
  @ApiOperation({ operationId: 'createIntegrationInstallationToken', summary: "A one-hour token limited to the installation's scopes, spaces and sites (the integration's publisher)", description: 'Answers `{token, expiresAt}` (`expiresAt` is ours), with Cache-Control: no-store.' })
  @ApiResponse({ status: 200, description: 'The token, shown once' })
  async token(@CurrentUser() user: User, @Param('integrationName') name: string, @Param('installationId') id: string, @Res({ passthrough: true }) res: Response) {
    const { token, expiresAt } = await this.tokens.create(user, name, id);
    res.status(200).setHeader('Cache-Control', 'no-store');
    return { token, expiresAt: expiresAt.toISOString() };
  }

  @Get('spaces')
  @ApiOperation({ operationId: 'listIntegrationSpaceInstallations', description: "The publisher sees every installation's; an installation token its own" })
  async listSpaces(@CurrentUser() user: User, @Param('integrationName') name: string, @Query() query: ExternalIdQueryDto) {
    return this.targets(user, 'space', name, query);
  }

  @Get('sites')
  @ApiOperation({ operationId: 'listIntegrationSiteInstallations', description: "The publisher sees every installation's; an installation token its own" })
  async listSites(@CurrentUser() user: User, @Param('integrationName') name: string, @Query() query: ExternalIdQueryDto) {
    return this.targets(user, 'site', name, query);
  }

  @Get('installations/:installationId/spaces')
  @ApiOperation({ operationId: 'listIntegrationInstallationSpaces', description: MANAGERS })
  async listInstallationSpaces(@CurrentUser() user: User, @Param('integrationName') name: string, @Param('installationId') id: string, @Query() query: ExternalIdQueryDto) {
    return this.targets(user, 'space', name, query, id);
  }

  @Get('installations/:installationId/sites')
  @ApiOperation({ operationId: 'listIntegrationInstallationSites', description: MANAGERS })
  async listInstallationSites(@CurrentUser() user: User, @Param('integrationName') name: string, @Param('installationId') id: string, @Query() query: ExternalIdQueryDto) {
    return this.targets(user, 'site', name, query, id);
  }

  @Post('installations/:installationId/spaces')
  @ApiOperation({ operationId: 'installIntegrationOnSpace', summary: "Install on a space of the installation's organization (its admins)" })
  @ApiResponse({ status: 201, description: 'Installed (200: it already was)' })
  async installOnSpace(@CurrentUser() user: User, @Param('integrationName') name: string, @Param('installationId') id: string, @Query() _query: ExtendedQueryDto, @Body() body: InstallOnSpaceDto, @Res({ passthrough: true }) res: Response) {
    return this.installOn(user, 'space', name, id, body.space, res);
  }

  @Post('installations/:installationId/sites')
  @ApiOperation({ operationId: 'installIntegrationOnSite', summary: "Install on a site of the installation's organization (its admins)" })
  @ApiResponse({ status: 201, description: 'Installed (200: it already was)' })
  async installOnSite(@CurrentUser() user: User, @Param('integrationName') name: string, @Param('installationId') id: string, @Query() _query: ExtendedQueryDto, @Body() body: InstallOnSiteDto, @Res({ passthrough: true }) res: Response) {
    return this.installOn(user, 'site', name, id, body.siteId, res);
  }

  @Get('installations/:installationId/spaces/:spaceId')
  @ApiOperation({ operationId: 'getIntegrationSpaceInstallation', description: MANAGERS })
  async getSpace(@CurrentUser() user: User, @Param('integrationName') name: string, @Param('installationId') id: string, @Param('spaceId') spaceId: string, @Query() _query: ExtendedQueryDto) {
    const { integration } = await this.integrations.get(user, name);
    return this.presenter.target(integration, 'space', await this.installations.getTarget(user, 'space', name, id, spaceId));
  }

  @Get('installations/:installationId/sites/:siteId')
  @ApiOperation({ operationId: 'getIntegrationSiteInstallation', description: MANAGERS })
  async getSite(@CurrentUser() user: User, @Param('integrationName') name: string, @Param('installationId') id: string, @Param('siteId') siteId: string, @Query() _query: ExtendedQueryDto) {
    const { integration } = await this.integrations.get(user, name);
    return this.presenter.target(integration, 'site', await this.installations.getTarget(user, 'site', name, id, siteId));
  }

  @Patch('installations/:installationId/spaces/:spaceId')
  @ApiOperation({ operationId: 'updateIntegrationSpaceInstallation', description: `${MANAGERS} The configuration is checked against the manifest's space schema.` })
  async updateSpace(@CurrentUser() user: User, @Param('integrationName') name: string, @Param('installationId') id: string, @Param('spaceId') spaceId: string, @Query() _query: ExtendedQueryDto, @Body() body: UpdateTargetInstallationDto) {
    const { integration } = await this.integrations.get(user, name);
    return this.presenter.target(integration, 'space', await this.installations.updateTarget(user, 'space', name, id, spaceId, body));
  }

  @Patch('installations/:installationId/sites/:siteId')
  @ApiOperation({ operationId: 'updateIntegrationSiteInstallation', description: `${MANAGERS} The configuration is checked against the manifest's site schema.` })
  async updateSite(@CurrentUser() user: User, @Param('integrationName') name: string, @Param('installationId') id: string, @Param('siteId') siteId: string, @Query() _query: ExtendedQueryDto, @Body() body: UpdateTargetInstallationDto) {
    const { integration } = await this.integrations.get(user, name);
    return this.presenter.target(integration, 'site', await this.installations.updateTarget(user, 'site', name, id, siteId, body));
  }

  @Delete('installations/:installationId/spaces/:spaceId')
  @ApiOperation({ operationId: 'uninstallIntegrationFromSpace' })
  @ApiResponse({ status: 205, description: 'Uninstalled' })
  async uninstallFromSpace(@CurrentUser() user: User, @Param('integrationName') name: string, @Param('installationId') id: string, @Param('spaceId') spaceId: string, @Res({ passthrough: true }) res: Response) {
    res.status((await this.installations.uninstallFrom(user, 'space', name, id, spaceId)) ? 205 : 204);
  }

  @Delete('installations/:installationId/sites/:siteId')
  @ApiOperation({ operationId: 'uninstallIntegrationFromSite' })
  @ApiResponse({ status: 205, description: 'Uninstalled' })
  async uninstallFromSite(@CurrentUser() user: User, @Param('integrationName') name: string, @Param('installationId') id: string, @Param('siteId') siteId: string, @Res({ passthrough: true }) res: Response) {
    res.status((await this.installations.uninstallFrom(user, 'site', name, id, siteId)) ? 205 : 204);
  }

  private async installOn(user: User, kind: 'space' | 'site', name: string, id: string, targetId: string, res: Response) {
    const { target, created } = await this.installations.installOn(user, kind, name, id, targetId);
    const { integration } = await this.integrations.get(user, name);
    const presented = this.presenter.target(integration, kind, target);
    res.status(created ? 201 : 200).setHeader('Location', presented.urls.location);
    return presented;
  }

  private async targets(user: User, kind: 'space' | 'site', name: string, query: ExternalIdQueryDto, installationId?: string) {
    const { integration } = await this.integrations.get(user, name);
    return toEnvelope(await this.installations.listTargets(user, kind, name, query.toPageRequest(), { installationId, externalId: query.externalId }), (t) => this.presenter.target(integration, kind, t));
  }
}

