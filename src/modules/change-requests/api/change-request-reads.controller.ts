import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ChangesQueryDto } from '../../content/api/dto/content-queries.dto';
import { CurrentUser, IntegrationScopes } from '../../identity/api/auth.decorators';
import { User } from '../../identity/domain/user';
import { ChangeRequestReadsService } from '../application/change-request-reads.service';
import { ContributorPresenter } from './contributor.presenter';

@ApiTags('change-requests')
@ApiBearerAuth()
@IntegrationScopes({ read: ['space:content:read'] })
@Controller('spaces/:spaceId/change-requests/:changeRequestId')
export class ChangeRequestReadsController {
  constructor(
    private readonly reads: ChangeRequestReadsService,
    private readonly contributors: ContributorPresenter,
  ) {}

  @Get('changes')
  @ApiOperation({
    operationId: 'getChangeRequestChanges',
    summary: 'What the change request changes against its base',
    description:
      'The head against the space revision the change request is based on (created from, or last updated from), so ' +
      'changes an update brought in from the space are not listed. `more` counts the changes beyond `limit` (default 10).',
  })
  semanticChanges(
    @CurrentUser() user: User,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') changeRequestId: string,
    @Query() query: ChangesQueryDto,
  ) {
    return this.reads.semanticChanges(user, spaceId, changeRequestId, query.limit);
  }

  @Get('contributors')
  @ApiOperation({
    operationId: 'getContributorsByChangeRequestId',
    summary: "Who edited the change request's content",
    description:
      'Ordered by user id, all in one page. `count` is the number of revisions on the change request line the user ' +
      'authored, `updatedAt` the time of the last; `actionType` is always `edit` (commenters are listed by `.../commenters`).',
  })
  async list(@CurrentUser() user: User, @Param('spaceId') spaceId: string, @Param('changeRequestId') changeRequestId: string) {
    const items = (await this.reads.contributors(user, spaceId, changeRequestId)).map((view) => this.contributors.present(view));
    return { items, count: items.length };
  }
}
