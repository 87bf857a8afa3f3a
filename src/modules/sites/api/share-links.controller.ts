import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ListQueryDto, toEnvelope } from '@app/common';
import { CurrentUser } from '../../identity/api/auth.decorators';
import { User } from '../../identity/domain/user';
import { ShareLinksService } from '../application/share-links.service';
import { CreateShareLinkDto, UpdateShareLinkDto } from './dto/sites.dto';
import { SitePresenter } from './site.presenter';

/** Share links of `share-link` sites (organization admins). Keys are stored hashed: the link's address is shown once. */
@ApiTags('sites')
@ApiBearerAuth()
@Controller('orgs/:organizationId/sites/:siteId/share-links')
export class ShareLinksController {
  constructor(
    private readonly links: ShareLinksService,
    private readonly presenter: SitePresenter,
  ) {}

  @Get()
  @ApiOperation({ operationId: 'listSiteShareLinks', summary: 'Share links (their addresses are not shown again: the keys are stored hashed)' })
  async list(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Query() query: ListQueryDto) {
    const { site, page } = await this.links.list(user, organizationId, siteId, query.toPageRequest());
    return toEnvelope(page, (link) => this.presenter.shareLink(site, link));
  }

  @Post()
  @HttpCode(201)
  @ApiOperation({ operationId: 'createSiteShareLink', summary: 'A new share link; `urls.published` (with its key) is in this answer only' })
  async create(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Body() body: CreateShareLinkDto) {
    const { site, link, key } = await this.links.create(user, organizationId, siteId, body.name);
    return this.presenter.shareLink(site, link, key);
  }

  @Patch(':shareLinkId')
  @ApiOperation({ operationId: 'updateSiteShareLinkById', summary: 'Rename, or revoke (`active: false`, effective at once) or reactivate' })
  async update(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Param('shareLinkId') id: string, @Body() body: UpdateShareLinkDto) {
    const { site, link } = await this.links.update(user, organizationId, siteId, id, body);
    return this.presenter.shareLink(site, link);
  }

  @Delete(':shareLinkId')
  @ApiResponse({ status: 205, description: 'Deleted' })
  @ApiResponse({ status: 204, description: 'There was no such link' })
  @ApiOperation({ operationId: 'deleteSiteShareLinkById' })
  async remove(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Param('shareLinkId') id: string, @Res({ passthrough: true }) res: Response) {
    res.status((await this.links.delete(user, organizationId, siteId, id)) ? 205 : 204);
  }
}
