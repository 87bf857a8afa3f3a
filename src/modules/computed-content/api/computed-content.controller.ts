import { Body, Controller, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser, SiteTokenReadable } from '../../identity/api/auth.decorators';
import { User } from '../../identity/domain/user';
import { ComputedContentService } from '../application/computed-content.service';
import { ComputedContentPresenter } from './computed-content.presenter';
import { ComputeDocumentDto, ComputeDocumentQueryDto, ComputeRevisionDto } from './dto/compute-content.dto';

const ERRORS =
  '404: a space the caller may not see, an OpenAPI spec slug its organization does not have (or that the caller may not ' +
  "use: guests use public specs and those the space's content computes pages from), or a tag or operation the " +
  "spec does not have; 409: the spec has no processed version yet. Computed from the spec's current version; nothing is stored.";

@ApiTags('content')
@ApiBearerAuth()
@Controller('spaces/:spaceId/content/computed')
@SiteTokenReadable()
export class ComputedContentController {
  constructor(
    private readonly computed: ComputedContentService,
    private readonly presenter: ComputedContentPresenter,
  ) {}

  @Post('revision')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'getComputedRevision',
    summary: 'The pages a computed source expands to',
    description:
      'For a `builtin:openapi` source (a computed page\'s `computed`): a document page per tag (or per operation, `grouping: ' +
      'by-operation`), in the order the spec lists them, as published sites show them, then with `models` a page of its ' +
      'schemas. Each page carries its own `computed` source and `computedSeed` for `getComputedDocument`, and its markdown. ' +
      ERRORS,
  })
  async revision(@CurrentUser() user: User, @Param('spaceId') spaceId: string, @Body() body: ComputeRevisionDto) {
    return this.presenter.revision(await this.computed.revision(user, spaceId, body.source, body.seed));
  }

  @Post('document')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'getComputedDocument',
    summary: 'The document of a computed page',
    description:
      'A JSON document of GitBook\'s `openapi-operation` blocks (referring to the spec by slug) and the descriptions the spec ' +
      'gives, or an `openapi-schemas` block of every schema (`doc: models`). ' +
      ERRORS,
  })
  document(@CurrentUser() user: User, @Param('spaceId') spaceId: string, @Body() body: ComputeDocumentDto, @Query() _query: ComputeDocumentQueryDto) {
    return this.computed.document(user, spaceId, body.source);
  }
}
