import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ListQueryDto, toEnvelope } from '@app/common';
import { CurrentUser, SiteTokenReadable } from '../../identity/api/auth.decorators';
import { User } from '../../identity/domain/user';
import { SearchService } from '../application/search.service';
import { searchScopeOf } from '../../sites/domain/search-scope';
import { SearchQueryDto, SiteSearchBodyDto } from './dto/search-query.dto';
import { SearchPresenter } from './search.presenter';

const ORDER =
  'Best matches first (PostgreSQL ts_rank: title, then description and headings, then body), ties by id; ' +
  'the text search configuration follows the space language; CJK text matches as a substring.';

@ApiTags('search')
@ApiBearerAuth()
@Controller()
export class SearchController {
  constructor(
    private readonly search: SearchService,
    private readonly presenter: SearchPresenter,
  ) {}

  @Get('spaces/:spaceId/search')
  @SiteTokenReadable()
  @ApiOperation({ operationId: 'searchSpaceContent', summary: 'Pages of the current revision matching the query, with their matching sections', description: ORDER })
  async searchSpace(@CurrentUser() user: User, @Param('spaceId') spaceId: string, @Query() query: SearchQueryDto) {
    const page = await this.search.searchSpace(user, spaceId, query.query, query.toPageRequest());
    return toEnvelope(page, (result) => this.presenter.page(result));
  }

  @Get('orgs/:organizationId/search')
  @ApiOperation({
    operationId: 'searchOrganizationContent',
    summary: 'Spaces the caller can read with pages matching the query (up to 5 pages each)',
    description: `Spaces ordered by their best page. ${ORDER}`,
  })
  async searchOrganization(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Query() query: SearchQueryDto) {
    const page = await this.search.searchOrganization(user, organizationId, query.query, query.toPageRequest());
    return toEnvelope(page, (result) => this.presenter.space(result));
  }

  @Post('orgs/:organizationId/sites/:siteId/search')
  @HttpCode(200)
  @SiteTokenReadable()
  @ApiOperation({
    operationId: 'searchSiteContent',
    summary: "The site's spaces in the scope that the caller can read, with pages matching the query (up to 5 pages each)",
    description: `As the organization search, over the spaces of the site's site spaces in the scope. ${ORDER}`,
  })
  async searchSite(
    @CurrentUser() user: User,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Query() list: ListQueryDto,
    @Body() body: SiteSearchBodyDto,
  ) {
    const page = await this.search.searchSite(user, organizationId, siteId, body.query, searchScopeOf(body), list.toPageRequest());
    return toEnvelope(page, (result) => this.presenter.space(result));
  }

  @Post('orgs/:organizationId/sites/:siteId/search/prewarm')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'prewarmSiteSearch',
    summary: 'Accepted and nothing to do: the search index is kept current as content changes (members who can see the site)',
  })
  async prewarmSite(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string): Promise<void> {
    await this.search.prewarmSite(user, organizationId, siteId);
  }
}
