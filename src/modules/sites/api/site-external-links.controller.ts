import { Body, Controller, Delete, Param, Patch, Post, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { HonoursReturnPreference, Urls } from '@app/common';
import { CurrentUser } from '../../identity/api/auth.decorators';
import { User } from '../../identity/domain/user';
import { SiteExternalLinksService } from '../application/site-external-links.service';
import { AddExternalLinkDto, UpdateExternalLinkDto } from './dto/sites.dto';
import { SitePresenter } from './site.presenter';

const WRITE = 'Needs the `create` organization role; edits of one site run one at a time. External links need a site with sections and go at the root or in a section group.';

@ApiTags('site-external-links')
@ApiBearerAuth()
@Controller('orgs/:organizationId/sites/:siteId/external-links')
export class SiteExternalLinksController {
  constructor(
    private readonly links: SiteExternalLinksService,
    private readonly presenter: SitePresenter,
    private readonly urls: Urls,
  ) {}

  @Post()
  @ApiOperation({ operationId: 'addExternalLinkToSite', summary: "Add a link to another web address among the site's sections", description: WRITE })
  @ApiResponse({ status: 201, description: 'Added, at the end of its level; `Location` names it' })
  async add(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Body() body: AddExternalLinkDto, @Res({ passthrough: true }) res: Response) {
    const link = await this.links.add(user, organizationId, siteId, body);
    res.status(201).setHeader('Location', this.urls.api(`/orgs/${organizationId}/sites/${siteId}/external-links/${link.id}`));
    return this.presenter.externalLink(link);
  }

  @Patch(':siteExternalLinkId')
  @HonoursReturnPreference('External link updated')
  @ApiOperation({ operationId: 'updateSiteExternalLinkById', description: `${WRITE} A new parent puts the link at the end of that level.` })
  async update(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Param('siteExternalLinkId') id: string, @Body() body: UpdateExternalLinkDto) {
    return this.presenter.externalLink(await this.links.update(user, organizationId, siteId, id, body));
  }

  @Delete(':siteExternalLinkId')
  @ApiResponse({ status: 205, description: 'Deleted' })
  @ApiResponse({ status: 204, description: 'The site has no such link' })
  @ApiOperation({ operationId: 'deleteSiteExternalLinkById', description: WRITE })
  async delete(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Param('siteExternalLinkId') id: string, @Res({ passthrough: true }) res: Response) {
    res.status((await this.links.delete(user, organizationId, siteId, id)) ? 205 : 204);
  }
}
