import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { toEnvelope } from '@app/common';
import { CurrentUser } from '../../identity/api/auth.decorators';
import { User } from '../../identity/domain/user';
import { ContentReader } from '../application/content-reader';
import { ContentReadsService } from '../application/content-reads.service';
import { ContentFlagsQueryDto, GetPageQueryDto, ListFilesQueryDto } from './dto/content-queries.dto';
import { ChangeRequestPresenter } from '../../change-requests/api/change-request.presenter';

/** Reads of a space's current revision. Whoever can see the space can read its content. */
@ApiTags('content')
@ApiBearerAuth()
@Controller('spaces/:spaceId/content')
export class SpaceContentController {
  constructor(
    private readonly reads: ContentReadsService,
    private readonly reader: ContentReader,
    private readonly changeRequests: ChangeRequestPresenter,
  ) {}

  @Get()
  @ApiOperation({ operationId: 'getCurrentRevision', summary: "The space's current revision: page tree, files, reusable contents, variables" })
  async revision(@CurrentUser() user: User, @Param('spaceId') spaceId: string, @Query() _query: ContentFlagsQueryDto) {
    const { revision, scope, mergedFrom } = await this.reads.spaceContent(user, spaceId);
    return this.reader.revision(revision, scope, mergedFrom ? { mergedFrom: this.changeRequests.present(mergedFrom) } : {});
  }

  @Get('pages')
  @ApiOperation({ operationId: 'listPages', summary: 'The page tree of the current revision, each page with its path and markdown' })
  async pages(@CurrentUser() user: User, @Param('spaceId') spaceId: string, @Query() _query: ContentFlagsQueryDto) {
    const { revision, scope } = await this.reads.spaceContent(user, spaceId);
    return { pages: await this.reader.pages(revision, scope) };
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
  @ApiOperation({ operationId: 'getPageById', summary: 'One page of the current revision, as a document (default) or as markdown' })
  async page(@CurrentUser() user: User, @Param('spaceId') spaceId: string, @Param('pageId') pageId: string, @Query() query: GetPageQueryDto) {
    const { revision, scope } = await this.reads.spaceContent(user, spaceId);
    return this.reader.page(revision, scope, pageId, query.format ?? 'document');
  }
}
