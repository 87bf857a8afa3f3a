import { Body, Controller, Delete, Get, Headers, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ConditionalRead, ConditionalWrite, ListQueryDto, answeredNotModified, entityTag, toEnvelope } from '@app/common';
import { CurrentUser, IntegrationScopes, SiteTokenReadable } from '../../identity/api/auth.decorators';
import { User } from '../../identity/domain/user';
import { SpacesService } from '../application/spaces.service';
import { CreateSpaceDto } from './dto/create-space.dto';
import { MoveSpaceDto } from './dto/move-space.dto';
import { GetSpaceQueryDto, ListMemberSpacesQueryDto } from './dto/space-queries.dto';
import { TransferSpaceDto } from './dto/transfer-space.dto';
import { UpdateSpaceDto } from './dto/update-space.dto';
import { SpacePresenter } from './space.presenter';

@ApiTags('spaces')
@ApiBearerAuth()
@IntegrationScopes({ read: ['space:metadata:read', 'space:content:read'] })
@Controller()
export class SpacesController {
  constructor(
    private readonly spaces: SpacesService,
    private readonly presenter: SpacePresenter,
  ) {}

  @Post('orgs/:organizationId/spaces')
  @HttpCode(201)
  @ApiOperation({ operationId: 'createSpace', summary: 'Create a space at the root of the organization or in a collection' })
  async create(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Body() body: CreateSpaceDto) {
    return this.presenter.present(await this.spaces.create(user, organizationId, body));
  }

  @Get('orgs/:organizationId/spaces')
  @ApiOperation({ operationId: 'listSpacesInOrganizationById', summary: 'Spaces of the organization the caller can see, oldest first' })
  async listInOrganization(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Query() query: ListQueryDto) {
    const page = await this.spaces.listInOrganization(user, organizationId, query.toPageRequest());
    return toEnvelope(page, (view) => this.presenter.present(view));
  }

  @Get('orgs/:organizationId/members/:userId/spaces')
  @ApiOperation({ operationId: 'listSpacesForOrganizationMember', summary: "The spaces a member can access and their role on each" })
  async listForMember(
    @CurrentUser() user: User,
    @Param('organizationId') organizationId: string,
    @Param('userId') userId: string,
    @Query() query: ListMemberSpacesQueryDto,
  ) {
    const page = await this.spaces.listForMember(user, organizationId, userId, query.order ?? 'asc', query.toPageRequest());
    return toEnvelope(page, (item) => this.presenter.presentMemberPermission(item));
  }

  @Get('collections/:collectionId/spaces')
  @ApiOperation({ operationId: 'listSpacesInCollectionById', summary: 'Spaces directly inside a collection, in their order' })
  async listInCollection(@CurrentUser() user: User, @Param('collectionId') collectionId: string, @Query() query: ListQueryDto) {
    const page = await this.spaces.listInCollection(user, collectionId, query.toPageRequest());
    return toEnvelope(page, (view) => this.presenter.present(view));
  }

  @Get('spaces/:spaceId')
  @ConditionalRead()
  @SiteTokenReadable()
  @ApiOperation({ operationId: 'getSpaceById' })
  async get(
    @CurrentUser() user: User,
    @Param('spaceId') spaceId: string,
    @Query() _query: GetSpaceQueryDto,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ) {
    const view = await this.spaces.get(user, spaceId);
    // The caller's role is part of the tag: it decides the `permissions` shown.
    const tag = entityTag('space', view.space.id, view.space.version, view.role ?? 'none');
    if (answeredNotModified(res, ifNoneMatch, tag)) return;
    return this.presenter.present(view);
  }

  @Patch('spaces/:spaceId')
  @ConditionalWrite()
  @ApiOperation({ operationId: 'updateSpaceById', summary: 'Update a space: editMode, defaultLevel and mergeRules need admin, the rest edit' })
  async update(
    @CurrentUser() user: User,
    @Param('spaceId') spaceId: string,
    @Body() body: UpdateSpaceDto,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ) {
    const { icon: _icon, ...patch } = body;
    const view = await this.spaces.update(user, spaceId, patch, ifMatch);
    res.setHeader('ETag', entityTag('space', view.space.id, view.space.version, view.role ?? 'none'));
    return this.presenter.present(view);
  }

  @Delete('spaces/:spaceId')
  @ApiOperation({ operationId: 'deleteSpaceById', summary: 'Delete a space; it can be restored for SPACE_RETENTION_DAYS' })
  @ApiResponse({ status: 205, description: 'Deleted' })
  @ApiResponse({ status: 204, description: 'There was no such space' })
  async delete(@CurrentUser() user: User, @Param('spaceId') spaceId: string, @Res({ passthrough: true }) res: Response): Promise<void> {
    res.status((await this.spaces.delete(user, spaceId)) ? 205 : 204);
  }

  @Post('spaces/:spaceId/restore')
  @HttpCode(200)
  @ApiOperation({ operationId: 'restoreSpace', summary: 'Restore a space deleted less than SPACE_RETENTION_DAYS ago' })
  async restore(@CurrentUser() user: User, @Param('spaceId') spaceId: string) {
    return this.presenter.present(await this.spaces.restore(user, spaceId));
  }

  @Post('spaces/:spaceId/duplicate')
  @HttpCode(201)
  @ApiOperation({ operationId: 'duplicateSpace', summary: 'Copy a space next to the original' })
  async duplicate(@CurrentUser() user: User, @Param('spaceId') spaceId: string) {
    return this.presenter.present(await this.spaces.duplicate(user, spaceId));
  }

  @Post('spaces/:spaceId/move')
  @HttpCode(200)
  @ApiOperation({ operationId: 'moveSpace', summary: 'Move a space to another collection and/or position' })
  async move(@CurrentUser() user: User, @Param('spaceId') spaceId: string, @Body() body: MoveSpaceDto) {
    return this.presenter.present(await this.spaces.move(user, spaceId, body));
  }

  @Post('spaces/:spaceId/transfer')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'transferSpace',
    summary: 'Move a space to the root of another organization',
    description:
      'Needs `admin` on the space, the organization `admin` role in the organization it leaves (403 otherwise, even with an ' +
      '`admin` grant on the space) and `create` in the target organization (404 when not a member there). Grants are dropped.',
  })
  async transfer(@CurrentUser() user: User, @Param('spaceId') spaceId: string, @Body() body: TransferSpaceDto) {
    return this.presenter.present(await this.spaces.transfer(user, spaceId, body.organization));
  }
}
