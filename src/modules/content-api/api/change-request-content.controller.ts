import { Controller, Get, Param, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { sendSerializedJson, toEnvelope } from '@app/common';
import { CurrentUser, IntegrationScopes } from '../../identity/api/auth.decorators';
import { User } from '../../identity/domain/user';
import { ContentReader } from '../../content/application/content-reader';
import { ContentReadsService } from '../application/content-reads.service';
import { ContentFlagsQueryDto, GetPageByPathQueryDto, GetPageQueryDto, ListFilesQueryDto } from '../../content/api/dto/content-queries.dto';
import { pagePathParam } from '../../content/api/page-path';

/**
 * Reads of a change request's head revision, shaped like the space content reads. The change
 * request is named by id or number; whoever can see the space can read them.
 */
@ApiTags('content')
@ApiBearerAuth()
@IntegrationScopes({ read: ['space:content:read'] })
@Controller('spaces/:spaceId/change-requests/:changeRequestId/content')
export class ChangeRequestContentController {
  constructor(
    private readonly reads: ContentReadsService,
    private readonly reader: ContentReader,
  ) {}

  @Get()
  @ApiOperation({ operationId: 'getRevisionOfChangeRequestById', summary: "The change request's head revision" })
  async revision(
    @CurrentUser() user: User,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') changeRequestId: string,
    @Query() _query: ContentFlagsQueryDto,
    @Req() req: Request,
    @Res() res: Response,
  ) {
    const { revision, scope } = await this.reads.changeRequestContent(user, spaceId, changeRequestId);
    sendSerializedJson(req, res, await this.reader.revisionJson(revision, scope));
  }

  @Get('pages')
  @ApiOperation({ operationId: 'listPagesInChangeRequest', summary: 'The page tree of the change request head' })
  async pages(
    @CurrentUser() user: User,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') changeRequestId: string,
    @Query() _query: ContentFlagsQueryDto,
    @Req() req: Request,
    @Res() res: Response,
  ) {
    const { revision, scope } = await this.reads.changeRequestContent(user, spaceId, changeRequestId);
    sendSerializedJson(req, res, await this.reader.pagesObjectJson(revision, scope));
  }

  @Get('files')
  @ApiOperation({ operationId: 'listFilesInChangeRequestById', summary: 'Files of the change request head, ordered by id' })
  async files(
    @CurrentUser() user: User,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') changeRequestId: string,
    @Query() query: ListFilesQueryDto,
  ) {
    const { revision } = await this.reads.changeRequestContent(user, spaceId, changeRequestId);
    return toEnvelope(this.reader.listFiles(revision, query.toPageRequest()), (file) => this.reader.file(file));
  }

  @Get('files/:fileId')
  @ApiOperation({ operationId: 'getFileInChangeRequestById', summary: 'One file of the change request head' })
  async file(
    @CurrentUser() user: User,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') changeRequestId: string,
    @Param('fileId') fileId: string,
    @Query() _query: ContentFlagsQueryDto,
  ) {
    const { revision } = await this.reads.changeRequestContent(user, spaceId, changeRequestId);
    return this.reader.file(this.reader.getFile(revision, fileId));
  }

  @Get('page/:pageId')
  @ApiOperation({ operationId: 'getPageInChangeRequestById', summary: 'One page of the change request head, as a document (default) or as markdown' })
  async page(
    @CurrentUser() user: User,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') changeRequestId: string,
    @Param('pageId') pageId: string,
    @Query() query: GetPageQueryDto,
  ) {
    const { revision, scope } = await this.reads.changeRequestContent(user, spaceId, changeRequestId);
    return this.reader.page(revision, scope, pageId, query.format ?? 'document');
  }

  @Get('page/:pageId/meta-links')
  @ApiOperation({ operationId: 'listChangeRequestPageMetaLinks', summary: "A page's meta links", description: 'No meta links are stored here: an existing page answers `{"alternates":[]}`.' })
  async metaLinks(
    @CurrentUser() user: User,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') changeRequestId: string,
    @Param('pageId') pageId: string,
  ) {
    const { revision } = await this.reads.changeRequestContent(user, spaceId, changeRequestId);
    return this.reader.metaLinks(revision, pageId);
  }

  @Get('path/*pagePath')
  @ApiOperation({
    operationId: 'getPageInChangeRequestByPath',
    summary: 'One page of the change request head by its path',
    description: 'As `getPageByPath`, in the change request head: plain segments or one encoded segment.',
  })
  async pageByPath(
    @CurrentUser() user: User,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') changeRequestId: string,
    @Param('pagePath') pagePath: string[] | string,
    @Query() query: GetPageByPathQueryDto,
  ) {
    const { revision, scope } = await this.reads.changeRequestContent(user, spaceId, changeRequestId);
    return this.reader.pageByPath(revision, scope, pagePathParam(pagePath), query.format ?? 'document');
  }

  @Get('reusable-contents/:reusableContentId')
  @ApiOperation({ operationId: 'getReusableContentInChangeRequestById', summary: 'One reusable content of the change request head' })
  async reusableContent(
    @CurrentUser() user: User,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') changeRequestId: string,
    @Param('reusableContentId') reusableContentId: string,
    @Query() _query: ContentFlagsQueryDto,
  ) {
    const { revision } = await this.reads.changeRequestContent(user, spaceId, changeRequestId);
    return this.reader.reusableContent(revision, reusableContentId);
  }
}
