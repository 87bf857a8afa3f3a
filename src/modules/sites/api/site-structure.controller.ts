import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { HonoursReturnPreference, toEnvelope, Urls } from '@app/common';
import { CurrentUser } from '../../identity/api/auth.decorators';
import { User } from '../../identity/domain/user';
import { PublishedSitesService } from '../application/published-sites.service';
import { SiteStructureService } from '../application/site-structure.service';
import { SiteSpaceCopiesService } from '../application/site-space-copies.service';
import { parsePosition } from '../domain/structure';
import {
  AddSectionDto,
  AddSectionGroupDto,
  AddSectionToGroupDto,
  AddSiteSpaceDto,
  DuplicateSiteSpaceDto,
  ListSiteSpacesQueryDto,
  MoveDto,
  ShareKeyQueryDto,
  UpdateSectionDto,
  UpdateSectionGroupDto,
  UpdateSiteSpaceDto,
} from './dto/sites.dto';
import { SitePresenter, StructureContext } from './site.presenter';

const STRUCTURE_WRITE = 'Needs the `create` organization role; edits of one site run one at a time.';

/** Sections, section groups and site spaces of a site. Every answer presents items from the structure as it is after the change. */
@ApiTags('sites')
@ApiBearerAuth()
@Controller('orgs/:organizationId/sites/:siteId')
export class SiteStructureController {
  constructor(
    private readonly structure: SiteStructureService,
    private readonly copies: SiteSpaceCopiesService,
    private readonly published: PublishedSitesService,
    private readonly presenter: SitePresenter,
    private readonly urls: Urls,
  ) {}

  private context(user: User, organizationId: string, siteId: string): Promise<StructureContext> {
    return this.published.forMember(user, organizationId, siteId);
  }

  private async section(user: User, organizationId: string, siteId: string, id: string) {
    const ctx = await this.context(user, organizationId, siteId);
    return this.presenter.section(ctx, ctx.rows.sections.find((s) => s.id === id)!);
  }

  private async group(user: User, organizationId: string, siteId: string, id: string) {
    const ctx = await this.context(user, organizationId, siteId);
    return this.presenter.group(ctx, ctx.rows.groups.find((g) => g.id === id)!);
  }

  private async siteSpace(user: User, organizationId: string, siteId: string, id: string) {
    const ctx = await this.context(user, organizationId, siteId);
    return this.presenter.siteSpace(ctx, ctx.rows.siteSpaces.find((s) => s.id === id)!);
  }

  // Sections -----------------------------------------------------------------------------------

  @Get('sections')
  @ApiOperation({ operationId: 'listSiteSections' })
  async listSections(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Query() query: ShareKeyQueryDto) {
    const page = await this.structure.listSections(user, organizationId, siteId, query.toPageRequest());
    const ctx = await this.context(user, organizationId, siteId);
    return toEnvelope(page, (section) => this.presenter.section(ctx, section));
  }

  @Post('sections')
  @HttpCode(201)
  @ApiOperation({ operationId: 'addSectionToSite', summary: 'A new section showing a space (the first section of a site with site spaces takes them along)', description: STRUCTURE_WRITE })
  async addSection(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Body() body: AddSectionDto) {
    const section = await this.structure.addSection(user, organizationId, siteId, body);
    return this.section(user, organizationId, siteId, section.id);
  }

  @Patch('sections/:siteSectionId')
  @HonoursReturnPreference('Section updated')
  @ApiOperation({ operationId: 'updateSiteSectionById', description: STRUCTURE_WRITE })
  async updateSection(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Param('siteSectionId') id: string, @Body() body: UpdateSectionDto) {
    await this.structure.updateSection(user, organizationId, siteId, id, body);
    return this.section(user, organizationId, siteId, id);
  }

  @Delete('sections/:siteSectionId')
  @HttpCode(205)
  @ApiOperation({ operationId: 'deleteSiteSectionById', summary: 'Remove a section and its site spaces', description: STRUCTURE_WRITE })
  async deleteSection(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Param('siteSectionId') id: string) {
    await this.structure.deleteSection(user, organizationId, siteId, id);
  }

  @Post('sections/:siteSectionId/move')
  @HttpCode(200)
  @ApiOperation({ operationId: 'moveSiteSection', deprecated: true, summary: 'Deprecated: use sortSiteStructure' })
  async moveSection(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Param('siteSectionId') id: string, @Body() body: MoveDto) {
    await this.structure.moveSection(user, organizationId, siteId, id, parsePosition(body?.position));
    return this.section(user, organizationId, siteId, id);
  }

  // Section groups -----------------------------------------------------------------------------

  @Get('section-groups')
  @ApiOperation({ operationId: 'listSiteSectionGroups' })
  async listGroups(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Query() query: ShareKeyQueryDto) {
    const page = await this.structure.listGroups(user, organizationId, siteId, query.toPageRequest());
    const ctx = await this.context(user, organizationId, siteId);
    return toEnvelope(page, (group) => this.presenter.group(ctx, group));
  }

  @Post('section-groups')
  @HttpCode(201)
  @ApiOperation({ operationId: 'addSectionGroupToSite', description: STRUCTURE_WRITE })
  async addGroup(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Body() body: AddSectionGroupDto) {
    const group = await this.structure.addGroup(user, organizationId, siteId, body);
    return this.group(user, organizationId, siteId, group.id);
  }

  @Patch('section-groups/:siteSectionGroupId')
  @HonoursReturnPreference('Section group updated')
  @ApiOperation({ operationId: 'updateSiteSectionGroupById', description: STRUCTURE_WRITE })
  async updateGroup(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Param('siteSectionGroupId') id: string, @Body() body: UpdateSectionGroupDto) {
    await this.structure.updateGroup(user, organizationId, siteId, id, body);
    return this.group(user, organizationId, siteId, id);
  }

  @Delete('section-groups/:siteSectionGroupId')
  @ApiResponse({ status: 205, description: 'Deleted; its sections moved up to where the group was' })
  @ApiResponse({ status: 204, description: 'There was no such group' })
  @ApiOperation({ operationId: 'deleteSiteSectionGroupById', description: STRUCTURE_WRITE })
  async deleteGroup(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Param('siteSectionGroupId') id: string, @Res({ passthrough: true }) res: Response) {
    res.status((await this.structure.deleteGroup(user, organizationId, siteId, id)) ? 205 : 204);
  }

  @Post('section-groups/:siteSectionGroupId/sections')
  @HttpCode(201)
  @ApiOperation({ operationId: 'addSectionToGroup', description: STRUCTURE_WRITE })
  async addToGroup(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Param('siteSectionGroupId') id: string, @Body() body: AddSectionToGroupDto) {
    await this.structure.addSectionToGroup(user, organizationId, siteId, id, body.sectionId);
    return this.group(user, organizationId, siteId, id);
  }

  @Delete('section-groups/:siteSectionGroupId/sections/:siteSectionId')
  @ApiResponse({ status: 205, description: 'The section left the group (it goes where the group is)' })
  @ApiResponse({ status: 204, description: 'The section was not in the group' })
  @ApiOperation({ operationId: 'removeSectionFromGroup', description: STRUCTURE_WRITE })
  async removeFromGroup(
    @CurrentUser() user: User,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Param('siteSectionGroupId') id: string,
    @Param('siteSectionId') sectionId: string,
    @Res({ passthrough: true }) res: Response,
  ) {
    res.status((await this.structure.removeSectionFromGroup(user, organizationId, siteId, id, sectionId)) ? 205 : 204);
  }

  @Post('section-groups/:siteSectionGroupId/move')
  @HttpCode(200)
  @ApiOperation({ operationId: 'moveSiteSectionGroup', summary: 'Move a group before or after a section or group of the same level' })
  async moveGroup(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Param('siteSectionGroupId') id: string, @Body() body: MoveDto) {
    await this.structure.moveGroup(user, organizationId, siteId, id, parsePosition(body?.position));
    return this.group(user, organizationId, siteId, id);
  }

  // Site spaces --------------------------------------------------------------------------------

  @Get('site-spaces')
  @ApiOperation({ operationId: 'listSiteSpaces' })
  async listSiteSpaces(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Query() query: ListSiteSpacesQueryDto) {
    const { page } = await this.structure.listSiteSpaces(user, organizationId, siteId, query.default, query.toPageRequest());
    const ctx = await this.context(user, organizationId, siteId);
    return toEnvelope({ ...page, items: page.items.filter((s) => ctx.spaces.has(s.spaceId)) }, (siteSpace) => this.presenter.siteSpace(ctx, siteSpace));
  }

  @Post('site-spaces')
  @HttpCode(201)
  @HonoursReturnPreference('Space added to the site')
  @ApiOperation({ operationId: 'addSpaceToSite', summary: 'Publish a space of the organization the caller can read in the site', description: STRUCTURE_WRITE })
  async addSiteSpace(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Body() body: AddSiteSpaceDto) {
    const siteSpace = await this.structure.addSiteSpace(user, organizationId, siteId, body);
    return this.siteSpace(user, organizationId, siteId, siteSpace.id);
  }

  @Post('site-spaces/:siteSpaceId/duplicate')
  @HttpCode(201)
  @ApiOperation({
    operationId: 'duplicateSiteSpace',
    summary: 'Copy the space of a site space into the site',
    description:
      'A full copy of the space (as `duplicateSpace`), shown right after the original: as a new variant of the same section (or at the root), or, ' +
      "when the original is its section's only variant, in a new section right after that one. The copy and its place commit together. " +
      'Needs the `create` organization role and the rights `duplicateSpace` needs. `draft: true` is a 400: nothing in a site is a draft here. ' +
      '`Location` names the new site space.',
  })
  async duplicateSiteSpace(
    @CurrentUser() user: User,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Param('siteSpaceId') id: string,
    @Body() body: DuplicateSiteSpaceDto,
    @Res({ passthrough: true }) res: Response,
  ) {
    const siteSpace = await this.copies.duplicateSiteSpace(user, organizationId, siteId, id, body ?? {});
    res.setHeader('Location', this.urls.api(`/orgs/${organizationId}/sites/${siteId}/site-spaces/${siteSpace.id}`));
    return this.siteSpace(user, organizationId, siteId, siteSpace.id);
  }

  @Post('template')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'applyTemplateToSite',
    summary: 'Fill an empty site with a starter space',
    description:
      "A site that shows no space yet gets a new space made from the built-in `getting-started` template, titled like the site, as its first site space. " +
      'A site that already shows a space is a 409. Customization is left as it is. ' + STRUCTURE_WRITE,
  })
  async applyTemplate(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string): Promise<void> {
    await this.copies.applyTemplate(user, organizationId, siteId);
  }

  @Patch('site-spaces/:siteSpaceId')
  @HonoursReturnPreference('Site space updated')
  @ApiOperation({ operationId: 'updateSiteSpaceById', description: STRUCTURE_WRITE })
  async updateSiteSpace(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Param('siteSpaceId') id: string, @Body() body: UpdateSiteSpaceDto) {
    await this.structure.updateSiteSpace(user, organizationId, siteId, id, body);
    return this.siteSpace(user, organizationId, siteId, id);
  }

  @Delete('site-spaces/:siteSpaceId')
  @HttpCode(205)
  @ApiOperation({ operationId: 'deleteSiteSpaceById', description: STRUCTURE_WRITE })
  async deleteSiteSpace(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Param('siteSpaceId') id: string) {
    await this.structure.deleteSiteSpace(user, organizationId, siteId, id);
  }

  @Post('site-spaces/:siteSpaceId/move')
  @HttpCode(200)
  @ApiOperation({ operationId: 'moveSiteSpace', deprecated: true, summary: 'Deprecated: use sortSiteStructure' })
  async moveSiteSpace(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Param('siteSpaceId') id: string, @Body() body: MoveDto) {
    await this.structure.moveSiteSpace(user, organizationId, siteId, id, parsePosition(body?.position));
    return this.siteSpace(user, organizationId, siteId, id);
  }

  @Get('site-spaces/:siteSpaceId/customization')
  @ApiOperation({ operationId: 'getSiteSpaceCustomizationById', summary: "The variant's settings: the site's with its overrides" })
  async siteSpaceCustomization(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Param('siteSpaceId') id: string) {
    return this.structure.siteSpaceCustomization(user, organizationId, siteId, id);
  }

  @Patch('site-spaces/:siteSpaceId/customization')
  @ApiOperation({ operationId: 'overrideSiteSpaceCustomizationById', description: STRUCTURE_WRITE })
  async overrideCustomization(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Param('siteSpaceId') id: string, @Body() body: Record<string, unknown>) {
    return this.structure.overrideSiteSpaceCustomization(user, organizationId, siteId, id, body);
  }

  @Delete('site-spaces/:siteSpaceId/customization')
  @HttpCode(205)
  @ApiOperation({ operationId: 'deleteSiteSpaceCustomizationById', summary: 'Drop the overrides: the variant looks like the site again', description: STRUCTURE_WRITE })
  async resetCustomization(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Param('siteSpaceId') id: string) {
    await this.structure.overrideSiteSpaceCustomization(user, organizationId, siteId, id, null);
  }
}
