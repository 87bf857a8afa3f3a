import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import { toEnvelope } from '@app/common';
import { CurrentUser } from '../../identity/api/auth.decorators';
import { User } from '../../identity/domain/user';
import { ChangeRequestMergeService } from '../application/change-request-merge.service';
import { ChangeRequestsService } from '../application/change-requests.service';
import { ChangeRequestPresenter } from './change-request.presenter';
import { CREATE_CHANGE_REQUEST_BODY_SCHEMA, parseCreateChangeRequestBody } from './dto/create-change-request.dto';
import { ListChangeRequestsQueryDto } from './dto/list-change-requests-query.dto';
import { UpdateChangeRequestDto } from './dto/update-change-request.dto';

@ApiTags('change-requests')
@ApiBearerAuth()
@Controller()
export class ChangeRequestsController {
  constructor(
    private readonly changeRequests: ChangeRequestsService,
    private readonly merges: ChangeRequestMergeService,
    private readonly presenter: ChangeRequestPresenter,
  ) {}

  @Get('spaces/:spaceId/change-requests')
  @ApiOperation({ operationId: 'listChangeRequestsForSpace', summary: 'Change requests of a space, newest first (status defaults to open)' })
  async listInSpace(@CurrentUser() user: User, @Param('spaceId') spaceId: string, @Query() query: ListChangeRequestsQueryDto) {
    const page = await this.changeRequests.listInSpace(user, spaceId, query, query.toPageRequest());
    return toEnvelope(page, (view) => this.presenter.present(view));
  }

  @Post('spaces/:spaceId/change-requests')
  @HttpCode(201)
  @ApiOperation({ operationId: 'createChangeRequest', summary: 'Create a draft change request from the current content' })
  @ApiBody({ schema: CREATE_CHANGE_REQUEST_BODY_SCHEMA as never })
  async create(@CurrentUser() user: User, @Param('spaceId') spaceId: string, @Body() body: unknown) {
    return this.presenter.present(await this.changeRequests.create(user, spaceId, parseCreateChangeRequestBody(body)));
  }

  @Get('spaces/:spaceId/change-requests/:changeRequestId')
  @ApiOperation({ operationId: 'getChangeRequestById', summary: 'A change request, by id or number' })
  async get(@CurrentUser() user: User, @Param('spaceId') spaceId: string, @Param('changeRequestId') changeRequestId: string) {
    return this.presenter.present(await this.changeRequests.get(user, spaceId, changeRequestId));
  }

  @Patch('spaces/:spaceId/change-requests/:changeRequestId')
  @ApiOperation({ operationId: 'updateChangeRequestById', summary: 'Subject, description, status (draft, open, archived)' })
  async update(
    @CurrentUser() user: User,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') changeRequestId: string,
    @Body() body: UpdateChangeRequestDto,
  ) {
    return this.presenter.present(await this.changeRequests.update(user, spaceId, changeRequestId, body));
  }

  @Post('spaces/:spaceId/change-requests/:changeRequestId/merge')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'mergeChangeRequest',
    summary: 'Merge into the space (three-way)',
    description:
      'Answers `result: "conflicts"` (200, nothing merged) when the change request and the space changed the same content, ' +
      'or while the change request still lists conflicting pages; update it from the space, edit those pages, merge again. ' +
      '412 when merge rules fail; 409 when the space kept changing during the merge.',
  })
  async merge(@CurrentUser() user: User, @Param('spaceId') spaceId: string, @Param('changeRequestId') changeRequestId: string) {
    return this.presenter.presentMerge(await this.merges.merge(user, spaceId, changeRequestId));
  }

  @Post('spaces/:spaceId/change-requests/:changeRequestId/update')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'updateChangeRequest',
    summary: 'Bring the space content into the change request (three-way)',
    description:
      'Always brings the space in. Where both sides changed the same content, the change request keeps its version, the ' +
      'page\'s document shows both (a warning hint, then a tabs block "Change request" / "Space"), the page is listed in the ' +
      'change request\'s `conflicts` until edited, and the answer is `result: "conflicts"`.',
  })
  async pull(@CurrentUser() user: User, @Param('spaceId') spaceId: string, @Param('changeRequestId') changeRequestId: string) {
    return this.presenter.presentUpdate(await this.merges.update(user, spaceId, changeRequestId));
  }

  @Get('orgs/:organizationId/change-requests')
  @ApiOperation({ operationId: 'listChangeRequestsForOrganization', summary: 'Change requests of the spaces the caller can read, newest first' })
  async listInOrganization(
    @CurrentUser() user: User,
    @Param('organizationId') organizationId: string,
    @Query() query: ListChangeRequestsQueryDto,
  ) {
    const page = await this.changeRequests.listInOrganization(user, organizationId, query, query.toPageRequest());
    return toEnvelope(page, (view) => this.presenter.present(view));
  }
}
