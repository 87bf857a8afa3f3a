import { Body, Controller, Delete, Get, Headers, HttpCode, Param, Patch, Post, Put, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { answeredNotModified, ConditionalRead, ConditionalWrite, entityTag, HonoursReturnPreference, toEnvelope } from '@app/common';
import { ChangesOnRead } from '../../../core/context/changes-on-read';
import { CurrentUser, IntegrationScopes, SiteTokenReadable } from '../../identity/api/auth.decorators';
import { User } from '../../identity/domain/user';
import { PublishedSitesService } from '../application/published-sites.service';
import { SiteStructureService } from '../application/site-structure.service';
import { SitesService } from '../application/sites.service';
import { VisitorAuthService } from '../application/visitor-auth.service';
import { parsePosition, requiredPointer } from '../domain/structure';
import { AdaptiveSchemaDto, CreateSiteDto, ListSitesQueryDto, ShareKeyQueryDto, SortStructureDto, UpdatePublishingAuthDto, UpdateSiteDto } from './dto/sites.dto';
import { SitePresenter } from './site.presenter';

@ApiTags('sites')
@ApiBearerAuth()
@IntegrationScopes({ read: ['site:metadata:read'] })
@Controller('orgs/:organizationId/sites')
export class SitesController {
  constructor(
    private readonly sites: SitesService,
    private readonly structure: SiteStructureService,
    private readonly published: PublishedSitesService,
    private readonly visitorAuth: VisitorAuthService,
    private readonly presenter: SitePresenter,
  ) {}

  @Get()
  @ApiOperation({ operationId: 'listSites', summary: "The organization's sites, oldest first (members; guests get 404)" })
  async list(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Query() query: ListSitesQueryDto) {
    const page = await this.sites.list(user, organizationId, { spaceId: query.space, title: query.title, published: query.published, types: query.type }, query.toPageRequest());
    return toEnvelope(page, (view) => this.presenter.site(view));
  }

  @Post()
  @HttpCode(201)
  @ApiOperation({ operationId: 'createSite', summary: 'Create a site (organization role `create`; an audience other than public needs `admin`)' })
  async create(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Body() body: CreateSiteDto) {
    return this.presenter.site(await this.sites.create(user, organizationId, body ?? {}));
  }

  @Get(':siteId')
  @ConditionalRead()
  @ApiOperation({ operationId: 'getSiteById' })
  async get(
    @CurrentUser() user: User,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ) {
    const view = await this.sites.get(user, organizationId, siteId);
    const tag = entityTag('site', view.site.id, view.site.version, view.role);
    if (answeredNotModified(res, ifNoneMatch, tag)) return;
    return this.presenter.site(view);
  }

  @Patch(':siteId')
  @ConditionalWrite()
  @ApiOperation({ operationId: 'updateSiteById', summary: 'Update settings; `null` removes basename, hostname or proxy. `visibility` and `hostname` need `admin`' })
  async update(
    @CurrentUser() user: User,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Body() body: UpdateSiteDto,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ) {
    const view = await this.sites.update(user, organizationId, siteId, body, ifMatch);
    res.setHeader('ETag', entityTag('site', view.site.id, view.site.version, view.role));
    return this.presenter.site(view);
  }

  @Delete(':siteId')
  @ApiResponse({ status: 205, description: 'Deleted, with its structure and share links' })
  @ApiResponse({ status: 204, description: 'There was no such site' })
  @ApiOperation({ operationId: 'deleteSiteById', summary: 'Delete a site (admins)' })
  async remove(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Res({ passthrough: true }) res: Response) {
    res.status((await this.sites.delete(user, organizationId, siteId)) ? 205 : 204);
  }

  @Post(':siteId/publish')
  @HttpCode(200)
  @ApiOperation({ operationId: 'publishSite', summary: 'Readers of its audience can reach the site from now on (admins)' })
  async publish(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string) {
    return this.presenter.site(await this.sites.setPublished(user, organizationId, siteId, true));
  }

  @Post(':siteId/unpublish')
  @HttpCode(200)
  @ApiOperation({ operationId: 'unpublishSite', summary: 'No reader can reach the site from now on (admins)' })
  async unpublish(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string) {
    return this.presenter.site(await this.sites.setPublished(user, organizationId, siteId, false));
  }

  @Get(':siteId/adaptive-schema')
  @ApiOperation({ operationId: 'getSiteAdaptiveSchema', summary: '404 until a schema was set' })
  async adaptiveSchema(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string) {
    const { jsonSchema, updatedAt } = await this.sites.adaptiveSchema(user, organizationId, siteId);
    return { object: 'site-adaptive-schema', jsonSchema, updatedAt: updatedAt.toISOString() };
  }

  @Put(':siteId/adaptive-schema')
  @ApiOperation({ operationId: 'updateSiteAdaptiveSchema', summary: 'Set the claims visitors may carry (a JSON Schema draft-07 object; 400 when it is not one)' })
  async setAdaptiveSchema(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Body() body: AdaptiveSchemaDto) {
    const { jsonSchema, updatedAt } = await this.sites.setAdaptiveSchema(user, organizationId, siteId, body.jsonSchema);
    return { object: 'site-adaptive-schema', jsonSchema, updatedAt: updatedAt.toISOString() };
  }

  @Get(':siteId/adaptive-schema/template-conditions')
  @ApiOperation({ operationId: 'listSiteAdaptiveTemplateConditions', summary: 'Example conditions for each claim of the schema' })
  async templateConditions(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string) {
    return { items: await this.sites.templateConditions(user, organizationId, siteId) };
  }

  @Get(':siteId/published')
  @SiteTokenReadable()
  @ApiOperation({
    operationId: 'getPublishedContentSite',
    summary: 'The site with its structure, customizations and scripts',
    description: "With the site's own reader token: the structure that reader sees (sections and variants whose conditions hold for its claims).",
  })
  async publishedSite(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Query() _query: ShareKeyQueryDto) {
    const ctx = await this.published.forCaller(user, organizationId, siteId);
    return this.presenter.publishedSite(ctx, await this.sites.viewOf(user, ctx));
  }

  @Get(':siteId/structure')
  @SiteTokenReadable()
  @ApiOperation({ operationId: 'getSiteStructure', description: "With the site's own reader token: the structure that reader sees." })
  async getStructure(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Query() _query: ShareKeyQueryDto) {
    return this.presenter.structure(await this.published.forCaller(user, organizationId, siteId));
  }

  @Patch(':siteId/structure/sort')
  @HonoursReturnPreference('Item moved')
  @ApiOperation({ operationId: 'sortSiteStructure', summary: 'Move a site space, section, section group or external link before or after a sibling of the same level; answers the moved item' })
  async sort(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Body() body: SortStructureDto) {
    const item = requiredPointer(body.item, 'item');
    await this.structure.sort(user, organizationId, siteId, item, parsePosition(body.position));
    const ctx = await this.published.forMember(user, organizationId, siteId);
    if (item.type === 'site-space') return this.presenter.siteSpace(ctx, ctx.rows.siteSpaces.find((s) => s.id === item.id)!);
    if (item.type === 'site-section') return this.presenter.section(ctx, ctx.rows.sections.find((s) => s.id === item.id)!);
    if (item.type === 'site-external-link') return this.presenter.externalLink(ctx.rows.externalLinks.find((l) => l.id === item.id)!);
    return this.presenter.group(ctx, ctx.rows.groups.find((g) => g.id === item.id)!);
  }

  @Get(':siteId/customization')
  @ApiOperation({ operationId: 'getSiteCustomizationById' })
  async customization(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string) {
    return this.sites.customization(user, organizationId, siteId);
  }

  @Put(':siteId/customization')
  @ApiOperation({ operationId: 'updateSiteCustomizationById', summary: 'Replace the settings (missing sections take their defaults); themes and colours style the published pages' })
  async setCustomization(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Body() body: Record<string, unknown>) {
    return this.sites.setCustomization(user, organizationId, siteId, body);
  }

  @Get(':siteId/publishing/auth')
  // Generates the key on first read: that is a change the audit log names the caller for.
  @ChangesOnRead()
  @ApiOperation({ operationId: 'getSitePublishingAuthById', summary: 'The visitor signing key: shown whole only when this call generates it, masked afterwards (admins)' })
  async publishingAuth(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string) {
    return { object: 'publishing-auth', ...(await this.visitorAuth.get(user, organizationId, siteId)) };
  }

  @Patch(':siteId/publishing/auth')
  @ApiOperation({ operationId: 'updateSitePublishingAuthById', summary: 'Backend `custom`, and the fallback (sign-in) URL refused readers are sent to' })
  async updatePublishingAuth(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Body() body: UpdatePublishingAuthDto) {
    return { object: 'publishing-auth', ...(await this.visitorAuth.update(user, organizationId, siteId, body)) };
  }

  @Post(':siteId/publishing/auth/regenerate')
  @HttpCode(200)
  @ApiOperation({ operationId: 'regenerateSitePublishingAuthById', summary: 'A new visitor signing key, shown once; tokens signed with the old one stop working' })
  async regenerate(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string) {
    return { object: 'publishing-auth', ...(await this.visitorAuth.regenerate(user, organizationId, siteId)) };
  }
}
