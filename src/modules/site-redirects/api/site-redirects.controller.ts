import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { toEnvelope } from '@app/common';
import { CurrentUser, SiteTokenReadable } from '../../identity/api/auth.decorators';
import { User } from '../../identity/domain/user';
import { MAX_REDIRECTS_PER_SITE, SiteRedirectsService } from '../application/site-redirects.service';
import { BulkUpsertSiteRedirectsDto, CreateSiteRedirectDto, ListSiteRedirectsQueryDto, RedirectBySourceQueryDto, UpdateSiteRedirectDto } from './dto/site-redirects.dto';
import { SiteRedirectPresenter } from './site-redirect.presenter';

const WRITES = `Organization members with \`create\` (403 otherwise); 409 for a second live (or draft) redirect of a source, or past ${MAX_REDIRECTS_PER_SITE} redirects per site; 400 for a destination that is not on this site.`;

/** A site's redirects: readers who find no page at a path are sent by the live redirect matching it. */
@ApiTags('sites')
@ApiBearerAuth()
@Controller('orgs/:organizationId/sites/:siteId')
export class SiteRedirectsController {
  constructor(
    private readonly redirects: SiteRedirectsService,
    private readonly presenter: SiteRedirectPresenter,
  ) {}

  @Get('redirects')
  @ApiOperation({ operationId: 'listSiteRedirects', summary: 'The live (or, `draft=true`, draft) redirects of the site' })
  async list(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Query() query: ListSiteRedirectsQueryDto) {
    const page = await this.redirects.list(user, organizationId, siteId, { draft: query.draft ?? false, search: query.search, orderBy: query.orderBy ?? 'createdAt' }, query.toPageRequest());
    return toEnvelope(page, (row) => this.presenter.present(row));
  }

  @Post('redirects')
  @HttpCode(201)
  @ApiOperation({ operationId: 'createSiteRedirect', summary: 'A new redirect', description: WRITES })
  async create(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Body() body: CreateSiteRedirectDto) {
    return this.presenter.present(await this.redirects.create(user, organizationId, siteId, body));
  }

  @Put('redirects')
  @ApiOperation({ operationId: 'bulkUpsertSiteRedirects', summary: 'Up to 500 redirect operations in one transaction, each answered on its own', description: WRITES })
  async bulk(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Body() body: BulkUpsertSiteRedirectsDto) {
    return { results: await this.redirects.bulkUpsert(user, organizationId, siteId, body.redirects) };
  }

  @Patch('redirects/:siteRedirectId')
  @ApiOperation({ operationId: 'updateSiteRedirectById', description: WRITES })
  async update(
    @CurrentUser() user: User,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Param('siteRedirectId') id: string,
    @Body() body: UpdateSiteRedirectDto,
  ) {
    return this.presenter.present(await this.redirects.update(user, organizationId, siteId, id, body));
  }

  @Delete('redirects/:siteRedirectId')
  @ApiResponse({ status: 205, description: 'Deleted' })
  @ApiResponse({ status: 204, description: 'There was no such redirect' })
  @ApiOperation({ operationId: 'deleteSiteRedirectById' })
  async remove(
    @CurrentUser() user: User,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Param('siteRedirectId') id: string,
    @Res({ passthrough: true }) res: Response,
  ) {
    res.status((await this.redirects.delete(user, organizationId, siteId, id)) ? 205 : 204);
  }

  @Get('redirect')
  @SiteTokenReadable()
  @ApiOperation({
    operationId: 'getSiteRedirectBySource',
    summary: 'The live redirect of exactly this source, and the address it sends readers to now',
    description: "Members, and the site's own reader token.",
  })
  async bySource(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Query() query: RedirectBySourceQueryDto) {
    const { redirect, target } = await this.redirects.bySource(user, organizationId, siteId, query.source);
    return { redirect: this.presenter.present(redirect), target };
  }
}
