import { Controller, Get, Param, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { sendSerializedJson, toEnvelope } from '@app/common';
import { ChangeRequestPresenter } from '../../change-requests/api/change-request.presenter';
import { CurrentUser, IntegrationScopes, SiteTokenReadable } from '../../identity/api/auth.decorators';
import { User } from '../../identity/domain/user';
import { ContentReader } from '../../content/application/content-reader';
import { ContentReadsService } from '../application/content-reads.service';
import { SemanticChangesReader } from '../../content/application/semantic-changes.reader';
import {
  ChangesQueryDto,
  ContentFlagsQueryDto,
  DocumentReadQueryDto,
  GetPageByPathQueryDto,
  GetPageQueryDto,
  ListFilesQueryDto,
} from '../../content/api/dto/content-queries.dto';
import { pagePathParam } from '../../content/api/page-path';

const REVISION_ACCESS =
  'Any revision of the space (its history or a change request line) the caller can read the space of; ' +
  "a revision of another space is 404, even in the same organization. ";

/** Reads of one revision of a space by id: the ids every content object names resolve here. */
@ApiTags('content')
@ApiBearerAuth()
@IntegrationScopes({ read: ['space:content:read'] })
@Controller('spaces/:spaceId/revisions/:revisionId')
export class RevisionContentController {
  constructor(
    private readonly reads: ContentReadsService,
    private readonly reader: ContentReader,
    private readonly changes: SemanticChangesReader,
    private readonly changeRequests: ChangeRequestPresenter,
  ) {}

  @Get()
  @SiteTokenReadable()
  @ApiOperation({ operationId: 'getRevisionById', summary: 'A revision of the space', description: REVISION_ACCESS })
  async revision(
    @CurrentUser() user: User,
    @Param('spaceId') spaceId: string,
    @Param('revisionId') revisionId: string,
    @Query() _query: ContentFlagsQueryDto,
    @Req() req: Request,
    @Res() res: Response,
  ) {
    const { revision, scope, mergedFrom } = await this.reads.revisionContent(user, spaceId, revisionId);
    sendSerializedJson(req, res, await this.reader.revisionJson(revision, scope, mergedFrom ? { mergedFrom: this.changeRequests.present(mergedFrom) } : {}));
  }

  @Get('changes')
  @ApiOperation({
    operationId: 'getRevisionSemanticChanges',
    summary: 'What the revision changed against its first parent',
    description:
      REVISION_ACCESS +
      'A revision without parents (the first of a space) is compared with an empty space. Page edits report title, ' +
      'description, slug, emoji and document; `more` counts the changes beyond `limit` (default 10).',
  })
  async semanticChanges(@CurrentUser() user: User, @Param('spaceId') spaceId: string, @Param('revisionId') revisionId: string, @Query() query: ChangesQueryDto) {
    const { revision, mergedFrom } = await this.reads.revisionContent(user, spaceId, revisionId);
    const changes = await this.changes.ofRevision(revision, query.limit);
    return { ...(mergedFrom ? { mergedFrom: this.changeRequests.present(mergedFrom) } : {}), ...changes };
  }

  @Get('pages')
  @SiteTokenReadable()
  @ApiOperation({ operationId: 'listPagesInRevisionById', summary: 'The page tree of the revision', description: REVISION_ACCESS })
  async pages(
    @CurrentUser() user: User,
    @Param('spaceId') spaceId: string,
    @Param('revisionId') revisionId: string,
    @Query() _query: ContentFlagsQueryDto,
    @Req() req: Request,
    @Res() res: Response,
  ) {
    const { revision, scope } = await this.reads.revisionContent(user, spaceId, revisionId);
    sendSerializedJson(req, res, await this.reader.pagesObjectJson(revision, scope));
  }

  @Get('page/:pageId')
  @SiteTokenReadable()
  @ApiOperation({ operationId: 'getPageInRevisionById', summary: 'One page of the revision, as a document (default) or as markdown', description: REVISION_ACCESS })
  async page(
    @CurrentUser() user: User,
    @Param('spaceId') spaceId: string,
    @Param('revisionId') revisionId: string,
    @Param('pageId') pageId: string,
    @Query() query: GetPageQueryDto,
  ) {
    const { revision, scope } = await this.reads.revisionContent(user, spaceId, revisionId);
    return this.reader.page(revision, scope, pageId, query.format ?? 'document');
  }

  @Get('page/:pageId/document')
  @SiteTokenReadable()
  @ApiOperation({ operationId: 'getPageDocumentInRevisionById', summary: "A document page's body as a JSON document (404 for groups and links)", description: REVISION_ACCESS })
  async pageDocument(
    @CurrentUser() user: User,
    @Param('spaceId') spaceId: string,
    @Param('revisionId') revisionId: string,
    @Param('pageId') pageId: string,
    @Query() _query: DocumentReadQueryDto,
  ) {
    const { revision } = await this.reads.revisionContent(user, spaceId, revisionId);
    return this.reader.pageDocument(revision, pageId);
  }

  @Get('page/:pageId/meta-links')
  @SiteTokenReadable()
  @ApiOperation({ operationId: 'listRevisionPageMetaLinks', summary: "A page's meta links", description: REVISION_ACCESS + 'No meta links are stored here: an existing page answers `{"alternates":[]}`.' })
  async metaLinks(@CurrentUser() user: User, @Param('spaceId') spaceId: string, @Param('revisionId') revisionId: string, @Param('pageId') pageId: string) {
    const { revision } = await this.reads.revisionContent(user, spaceId, revisionId);
    return this.reader.metaLinks(revision, pageId);
  }

  @Get('path/*pagePath')
  @SiteTokenReadable()
  @ApiOperation({
    operationId: 'getPageInRevisionByPath',
    summary: 'One page of the revision by its path',
    description: REVISION_ACCESS + 'The path may be sent as plain segments (`guide/intro`) or as one encoded segment (`guide%2Fintro`).',
  })
  async pageByPath(
    @CurrentUser() user: User,
    @Param('spaceId') spaceId: string,
    @Param('revisionId') revisionId: string,
    @Param('pagePath') pagePath: string[] | string,
    @Query() query: GetPageByPathQueryDto,
  ) {
    const { revision, scope } = await this.reads.revisionContent(user, spaceId, revisionId);
    return this.reader.pageByPath(revision, scope, pagePathParam(pagePath), query.format ?? 'document');
  }

  @Get('files')
  @SiteTokenReadable()
  @ApiOperation({ operationId: 'listFilesInRevisionById', summary: 'Files of the revision, ordered by id', description: REVISION_ACCESS })
  async files(@CurrentUser() user: User, @Param('spaceId') spaceId: string, @Param('revisionId') revisionId: string, @Query() query: ListFilesQueryDto) {
    const { revision } = await this.reads.revisionContent(user, spaceId, revisionId);
    return toEnvelope(this.reader.listFiles(revision, query.toPageRequest()), (file) => this.reader.file(file));
  }

  @Get('files/:fileId')
  @SiteTokenReadable()
  @ApiOperation({ operationId: 'getFileInRevisionById', summary: 'One file of the revision', description: REVISION_ACCESS })
  async file(
    @CurrentUser() user: User,
    @Param('spaceId') spaceId: string,
    @Param('revisionId') revisionId: string,
    @Param('fileId') fileId: string,
    @Query() _query: ContentFlagsQueryDto,
  ) {
    const { revision } = await this.reads.revisionContent(user, spaceId, revisionId);
    return this.reader.file(this.reader.getFile(revision, fileId));
  }

  @Get('reusable-contents/:reusableContentId')
  @SiteTokenReadable()
  @ApiOperation({ operationId: 'getReusableContentInRevisionById', summary: 'One reusable content of the revision', description: REVISION_ACCESS })
  async reusableContent(
    @CurrentUser() user: User,
    @Param('spaceId') spaceId: string,
    @Param('revisionId') revisionId: string,
    @Param('reusableContentId') reusableContentId: string,
    @Query() _query: ContentFlagsQueryDto,
  ) {
    const { revision } = await this.reads.revisionContent(user, spaceId, revisionId);
    return this.reader.reusableContent(revision, reusableContentId);
  }

  @Get('reusable-contents/:reusableContentId/document')
  @SiteTokenReadable()
  @ApiOperation({ operationId: 'getReusableContentDocumentInRevisionById', summary: 'The body of a reusable content as a JSON document', description: REVISION_ACCESS })
  async reusableContentDocument(
    @CurrentUser() user: User,
    @Param('spaceId') spaceId: string,
    @Param('revisionId') revisionId: string,
    @Param('reusableContentId') reusableContentId: string,
    @Query() _query: DocumentReadQueryDto,
  ) {
    const { revision } = await this.reads.revisionContent(user, spaceId, revisionId);
    return this.reader.reusableContentDocument(revision, reusableContentId);
  }
}
