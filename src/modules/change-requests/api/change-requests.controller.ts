import { createHash } from 'node:crypto';
import { Body, Controller, Get, Headers, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { answeredNotModified, ConditionalRead, ConditionalWrite, entityTag, HonoursReturnPreference, toEnvelope } from '@app/common';
import { CurrentUser, IntegrationScopes } from '../../identity/api/auth.decorators';
import { User } from '../../identity/domain/user';
import { ChangeRequestMergeService } from '../application/change-request-merge.service';
import { ChangeRequestView, ChangeRequestsService } from '../application/change-requests.service';
import { ChangeRequestPresenter } from './change-request.presenter';
import { CREATE_CHANGE_REQUEST_BODY_SCHEMA, parseCreateChangeRequestBody } from './dto/create-change-request.dto';
import { ListChangeRequestsQueryDto } from './dto/list-change-requests-query.dto';
import { UpdateChangeRequestDto } from './dto/update-change-request.dto';

@ApiTags('change-requests')
@ApiBearerAuth()
@IntegrationScopes({ read: ['space:content:read'], write: ['space:content:write'] })
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
  @ConditionalRead()
  @ApiOperation({ operationId: 'getChangeRequestById', summary: 'A change request, by id or number' })
  async get(
    @CurrentUser() user: User,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') changeRequestId: string,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ) {
    const view = await this.changeRequests.get(user, spaceId, changeRequestId);
    const tag = changeRequestTag(view, user.id);
    if (answeredNotModified(res, ifNoneMatch, tag)) return;
    return this.presenter.present(view);
  }

  @Patch('spaces/:spaceId/change-requests/:changeRequestId')
  @ConditionalWrite()
  @HonoursReturnPreference('Change request updated')
  @ApiOperation({ operationId: 'updateChangeRequestById', summary: 'Subject, description, status (draft, open, archived)' })
  async update(
    @CurrentUser() user: User,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') changeRequestId: string,
    @Body() body: UpdateChangeRequestDto,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ) {
    const view = await this.changeRequests.update(user, spaceId, changeRequestId, body, ifMatch);
    res.setHeader('ETag', changeRequestTag(view, user.id));
    return this.presenter.present(view);
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
  @ConditionalWrite()
  async merge(
    @CurrentUser() user: User,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') changeRequestId: string,
    @Headers('if-match') ifMatch: string | undefined,
  ) {
    return this.presenter.presentMerge(await this.merges.merge(user, spaceId, changeRequestId, ifMatch));
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

/** The change request's version, and what else its answer shows: whether it is outdated (the space head) and for whom. */
function changeRequestTag(view: ChangeRequestView, viewerId: string): string {
  const variant = createHash('sha256').update(`${view.spaceRevision}|${viewerId}`).digest('base64url').slice(0, 12);
  return entityTag('change-request', view.changeRequest.id, view.changeRequest.version, variant);
}
