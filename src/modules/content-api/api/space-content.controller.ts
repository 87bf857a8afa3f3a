import { createHash } from 'node:crypto';
import { Controller, Get, Headers, Param, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ConditionalRead, answeredNotModified, entityTag, sendSerializedJson, toEnvelope } from '@app/common';
import { CurrentUser, IntegrationScopes, SiteTokenReadable } from '../../identity/api/auth.decorators';
import { User } from '../../identity/domain/user';
import { ContentReader } from '../../content/application/content-reader';
import { ContentReadsService } from '../application/content-reads.service';
import { ContentFlagsQueryDto, GetPageByPathQueryDto, GetPageQueryDto, ListFilesQueryDto } from '../../content/api/dto/content-queries.dto';
import { pagePathParam } from '../../content/api/page-path';
import { ChangeRequestPresenter } from '../../change-requests/api/change-request.presenter';

/** Reads of a space's current revision. Whoever can see the space can read its content. */
@ApiTags('content')
@ApiBearerAuth()
@IntegrationScopes({ read: ['space:content:read'] })
@Controller('spaces/:spaceId/content')
@SiteTokenReadable()
export class SpaceContentController {
  constructor(
    private readonly reads: ContentReadsService,
    private readonly reader: ContentReader,
    private readonly changeRequests: ChangeRequestPresenter,
  ) {}

  @Get()
  @ApiOperation({ operationId: 'getCurrentRevision', summary: "The space's current revision: page tree, files, reusable contents, variables" })
  async revision(@CurrentUser() user: User, @Param('spaceId') spaceId: string, @Query() _query: ContentFlagsQueryDto, @Req() req: Request, @Res() res: Response) {
    const { revision, scope, mergedFrom } = await this.reads.spaceContent(user, spaceId);
    sendSerializedJson(req, res, await this.reader.revisionJson(revision, scope, mergedFrom ? { mergedFrom: this.changeRequests.present(mergedFrom) } : {}));
  }

  @Get('pages')
  @ApiOperation({ operationId: 'listPages', summary: 'The page tree of the current revision, each page with its path and markdown' })
  async pages(@CurrentUser() user: User, @Param('spaceId') spaceId: string, @Query() _query: ContentFlagsQueryDto, @Req() req: Request, @Res() res: Response) {
    const { revision, scope } = await this.reads.spaceContent(user, spaceId);
    sendSerializedJson(req, res, await this.reader.pagesObjectJson(revision, scope));
  }

  @Get('files')
  @ApiOperation({ operationId: 'listFiles', summary: 'Files of the current revision, ordered by id' })
  async files(@CurrentUser() user: User, @Param('spaceId') spaceId: string, @Query() query: ListFilesQueryDto) {
    const { revision } = await this.reads.spaceContent(user, spaceId);
    return toEnvelope(this.reader.listFiles(revision, query.toPageRequest()), (file) => this.reader.file(file));
  }

  @Get('files/:fileId')
  @ApiOperation({ operationId: 'getFileById', summary: 'One file of the current revision' })
  async file(@CurrentUser() user: User, @Param('spaceId') spaceId: string, @Param('fileId') fileId: string, @Query() _query: ContentFlagsQueryDto) {
    const { revision } = await this.reads.spaceContent(user, spaceId);
    return this.reader.file(this.reader.getFile(revision, fileId));
  }

  @Get('page/:pageId')
  @ConditionalRead()
  @ApiOperation({ operationId: 'getPageById', summary: 'One page of the current revision, as a document (default) or as markdown' })
  async page(
    @CurrentUser() user: User,
    @Param('spaceId') spaceId: string,
    @Param('pageId') pageId: string,
    @Query() query: GetPageQueryDto,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ) {
    const { revision, scope } = await this.reads.spaceContent(user, spaceId);
    const page = await this.reader.page(revision, scope, pageId, query.format ?? 'document');
    // Tagged by what it shows: edits of other pages leave it unchanged.
    const tag = entityTag('page', pageId, createHash('sha256').update(JSON.stringify(page)).digest('base64url').slice(0, 22));
    if (answeredNotModified(res, ifNoneMatch, tag)) return;
    return page;
  }

  @Get('page/:pageId/meta-links')
  @ApiOperation({ operationId: 'listSpacePageMetaLinks', summary: "A page's meta links", description: 'No meta links are stored here: an existing page answers `{"alternates":[]}`.' })
  async metaLinks(@CurrentUser() user: User, @Param('spaceId') spaceId: string, @Param('pageId') pageId: string) {
    const { revision } = await this.reads.spaceContent(user, spaceId);
    return this.reader.metaLinks(revision, pageId);
  }

  @Get('path/*pagePath')
  @ApiOperation({
    operationId: 'getPageByPath',
    summary: 'One page of the current revision by its path',
    description:
      'The path is the slugs of the document ancestors and the page (`guide/intro`), sent as plain segments or as one ' +
      'encoded segment (`guide%2Fintro`); a group answers to its own slug. Link pages have no path.',
  })
  async pageByPath(@CurrentUser() user: User, @Param('spaceId') spaceId: string, @Param('pagePath') pagePath: string[] | string, @Query() query: GetPageByPathQueryDto) {
    const { revision, scope } = await this.reads.spaceContent(user, spaceId);
    return this.reader.pageByPath(revision, scope, pagePathParam(pagePath), query.format ?? 'document');
  }

  @Get('reusable-contents/:reusableContentId')
  @ApiOperation({
    operationId: 'getReusableContentById',
    summary: 'One reusable content of the current revision',
    description: 'The content API does not create reusable contents yet, so revisions hold none and this answers 404.',
  })
  async reusableContent(
    @CurrentUser() user: User,
    @Param('spaceId') spaceId: string,
    @Param('reusableContentId') reusableContentId: string,
    @Query() _query: ContentFlagsQueryDto,
  ) {
    const { revision } = await this.reads.spaceContent(user, spaceId);
    return this.reader.reusableContent(revision, reusableContentId);
  }
}
