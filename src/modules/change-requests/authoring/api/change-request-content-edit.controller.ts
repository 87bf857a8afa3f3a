import { Body, Controller, Headers, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ConditionalWrite, entityTag } from '@app/common';
import { CurrentUser, IntegrationScopes } from '../../../identity/api/auth.decorators';
import { User } from '../../../identity/domain/user';
import { ChangeRequestAuthoringService } from '../application/change-request-authoring.service';
import { parseContentUpdateBody } from '../domain/changes';
import { ContentUpdatePresenter } from './content-update.presenter';
import { UPDATE_CONTENT_BODY_SCHEMA, UpdateContentQueryDto } from './dto/update-content.dto';

@ApiTags('change-request-content')
@ApiBearerAuth()
@IntegrationScopes({ write: ['space:content:write'] })
@Controller('spaces/:spaceId/change-requests/:changeRequestId/content')
export class ChangeRequestContentEditController {
  constructor(
    private readonly authoring: ChangeRequestAuthoringService,
    private readonly presenter: ContentUpdatePresenter,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'updateChangeRequestContent',
    summary: 'Apply up to 50 content changes to a change request, atomically, as one revision',
    description:
      '`insert_page`, `update_page`, `delete_page`, `revert_page`, `insert_files`. Any invalid change rejects the whole batch ' +
      '(400 naming it, e.g. `changes[3]: page "x" not found`) and nothing is written. Needs `edit` on the space; a locked space answers 423. ' +
      'Answers `ChangeRequestContentUpdate` (the change request, the created/updated/deleted pages with their ids, the inserted files) ' +
      'unless `compat=true`, which answers the bare change request. GitBook still defaults to `compat=true` and has announced the switch; ' +
      'we default to the shape that tells the caller the ids of the pages it created.',
  })
  @ApiBody({ schema: UPDATE_CONTENT_BODY_SCHEMA as never })
  @ConditionalWrite()
  async update(
    @CurrentUser() user: User,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') changeRequestId: string,
    @Query() query: UpdateContentQueryDto,
    @Body() body: unknown,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ) {
    const outcome = await this.authoring.updateContent(user, spaceId, changeRequestId, parseContentUpdateBody(body), ifMatch);
    // The change request's new version, for the next conditional write.
    res.setHeader('ETag', entityTag('change-request', outcome.changeRequest.id, outcome.changeRequest.version));
    return this.presenter.present(outcome, query.compat ?? false, user);
  }
}
