import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ListQueryDto, toEnvelope } from '@app/common';
import { CurrentUser } from '../../identity/api/auth.decorators';
import { User } from '../../identity/domain/user';
import { MemberPresenter } from '../../organizations/api/member.presenter';
import { CommentersService } from '../application/commenters.service';

const COMMENTERS =
  'Everyone who posted a comment or a reply there and is still an active member of the organization, as members, ' +
  'ordered by user id. E-mail addresses are left out for callers who are guests of the organization.';

@ApiTags('comments')
@ApiBearerAuth()
@Controller('spaces/:spaceId')
export class CommentersController {
  constructor(
    private readonly commenters: CommentersService,
    private readonly members: MemberPresenter,
  ) {}

  @Get('commenters')
  @ApiOperation({ operationId: 'listCommentersInSpace', summary: "Who commented on the space's content (outside change requests)", description: COMMENTERS })
  async inSpace(@CurrentUser() user: User, @Param('spaceId') spaceId: string, @Query() query: ListQueryDto) {
    return this.present(await this.commenters.list(user, spaceId, undefined, query.toPageRequest()));
  }

  @Get('change-requests/:changeRequestId/commenters')
  @ApiOperation({ operationId: 'listCommentersInChangeRequest', summary: 'Who commented on the change request', description: COMMENTERS })
  async inChangeRequest(
    @CurrentUser() user: User,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') changeRequestId: string,
    @Query() query: ListQueryDto,
  ) {
    return this.present(await this.commenters.list(user, spaceId, changeRequestId, query.toPageRequest()));
  }

  private present(page: Awaited<ReturnType<CommentersService['list']>>) {
    return toEnvelope(page, (view) => this.members.present(view));
  }
}
