import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser, SiteTokenReadable } from '../../identity/api/auth.decorators';
import { User } from '../../identity/domain/user';
import { ContentReader } from '../../content/application/content-reader';
import { ContentReadsService } from '../application/content-reads.service';
import { DocumentByIdQueryDto } from '../../content/api/dto/content-queries.dto';

/** Documents by the `documentId` pages and reusable contents name. */
@ApiTags('content')
@ApiBearerAuth()
@Controller('spaces/:spaceId/documents')
@SiteTokenReadable()
export class SpaceDocumentsController {
  constructor(
    private readonly reads: ContentReadsService,
    private readonly reader: ContentReader,
  ) {}

  @Get(':documentId')
  @ApiOperation({
    operationId: 'getDocumentById',
    summary: 'A document of the space as a JSON document',
    description:
      "Any document of any revision of the space (its pages' and reusable contents' `documentId`). Document ids are content " +
      "hashes shared between spaces with the same text, so one answers only in a space whose content names it; elsewhere 404.",
  })
  async document(@CurrentUser() user: User, @Param('spaceId') spaceId: string, @Param('documentId') documentId: string, @Query() _query: DocumentByIdQueryDto) {
    return this.reader.document(await this.reads.document(user, spaceId, documentId));
  }
}
