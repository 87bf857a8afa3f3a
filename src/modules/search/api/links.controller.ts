import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ListQueryDto } from '@app/common';
import { CurrentUser } from '../../identity/api/auth.decorators';
import { User } from '../../identity/domain/user';
import { LinksService } from '../application/links.service';
import { ListChangeRequestLinksQueryDto, ListLinksQueryDto } from './dto/search-query.dto';
import { LinkLocationPresenter } from './link-location.presenter';

const STATUS =
  'Items are link targets (ordered by target), each with the pages linking to it (up to 100). `ok`; `broken`: a page or ' +
  'file missing from the revision, or a relative .md path naming no page; `in-app`: an absolute URL into this ' +
  'server\'s app (PUBLIC_URL/app...). `stats` counts links (occurrences); `broken.changeRequest` counts broken links ' +
  "of open and draft change requests that the space's current content does not have broken.";

@ApiTags('content')
@ApiBearerAuth()
@Controller('spaces/:spaceId')
export class LinksController {
  constructor(
    private readonly links: LinksService,
    private readonly presenter: LinkLocationPresenter,
  ) {}

  @Get('links')
  @ApiOperation({ operationId: 'listSpaceLinks', summary: 'Links of the current revision, with stats', description: STATUS })
  async spaceLinks(@CurrentUser() user: User, @Param('spaceId') spaceId: string, @Query() query: ListLinksQueryDto) {
    return await this.presenter.links(await this.links.spaceLinks(user, spaceId, query.status, query.toPageRequest()));
  }

  @Get('content/page/:pageId/links')
  @ApiOperation({ operationId: 'listPageLinksInSpace', summary: 'Links of one page of the current revision', description: STATUS })
  async pageLinks(@CurrentUser() user: User, @Param('spaceId') spaceId: string, @Param('pageId') pageId: string, @Query() query: ListLinksQueryDto) {
    return await this.presenter.links(await this.links.pageLinks(user, spaceId, pageId, query.status, query.toPageRequest()));
  }

  @Get('content/page/:pageId/backlinks')
  @ApiOperation({ operationId: 'listSpacePageBacklinks', summary: 'Pages of the current revision linking to a page, by page id' })
  async pageBacklinks(@CurrentUser() user: User, @Param('spaceId') spaceId: string, @Param('pageId') pageId: string, @Query() query: ListQueryDto) {
    return await this.presenter.backlinks(await this.links.pageBacklinks(user, spaceId, pageId, query.toPageRequest()));
  }

  @Get('content/files/:fileId/backlinks')
  @ApiOperation({ operationId: 'listSpaceFileBacklinks', summary: 'Pages of the current revision linking to (or showing) a file, by page id' })
  async fileBacklinks(@CurrentUser() user: User, @Param('spaceId') spaceId: string, @Param('fileId') fileId: string, @Query() query: ListQueryDto) {
    return await this.presenter.backlinks(await this.links.fileBacklinks(user, spaceId, fileId, query.toPageRequest()));
  }

  @Get('change-requests/:changeRequestId/links')
  @ApiOperation({ operationId: 'listChangeRequestLinks', summary: "Links of a change request's head, with stats", description: STATUS })
  async changeRequestLinks(
    @CurrentUser() user: User,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') changeRequestId: string,
    @Query() query: ListChangeRequestLinksQueryDto,
  ) {
    const filter = { status: query.status, brokenContext: query.brokenContext };
    return await this.presenter.links(await this.links.changeRequestLinks(user, spaceId, changeRequestId, filter, query.toPageRequest()));
  }

  @Get('change-requests/:changeRequestId/content/page/:pageId/links')
  @ApiOperation({ operationId: 'listPageLinksInChangeRequest', summary: "Links of one page of a change request's head", description: STATUS })
  async changeRequestPageLinks(
    @CurrentUser() user: User,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') changeRequestId: string,
    @Param('pageId') pageId: string,
    @Query() query: ListLinksQueryDto,
  ) {
    return await this.presenter.links(await this.links.changeRequestPageLinks(user, spaceId, changeRequestId, pageId, query.status, query.toPageRequest()));
  }

  @Get('change-requests/:changeRequestId/content/page/:pageId/backlinks')
  @ApiOperation({ operationId: 'listChangeRequestPageBacklinks', summary: "Pages of a change request's head linking to a page" })
  async changeRequestPageBacklinks(
    @CurrentUser() user: User,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') changeRequestId: string,
    @Param('pageId') pageId: string,
    @Query() query: ListQueryDto,
  ) {
    return await this.presenter.backlinks(await this.links.changeRequestPageBacklinks(user, spaceId, changeRequestId, pageId, query.toPageRequest()));
  }

  @Get('change-requests/:changeRequestId/content/files/:fileId/backlinks')
  @ApiOperation({ operationId: 'listChangeRequestFileBacklinks', summary: "Pages of a change request's head linking to a file" })
  async changeRequestFileBacklinks(
    @CurrentUser() user: User,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') changeRequestId: string,
    @Param('fileId') fileId: string,
    @Query() query: ListQueryDto,
  ) {
    return await this.presenter.backlinks(await this.links.changeRequestFileBacklinks(user, spaceId, changeRequestId, fileId, query.toPageRequest()));
  }
}
