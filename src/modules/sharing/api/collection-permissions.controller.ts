import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ListQueryDto, toEnvelope } from '@app/common';
import { CurrentUser } from '../../identity/api/auth.decorators';
import { User } from '../../identity/domain/user';
import { SharingService } from '../application/sharing.service';
import { ContentRef } from '../domain/content-grant';
import { ContentPermissionPresenter } from './content-permission.presenter';
import { ListAudienceQueryDto, ShareContentDto, UpdatePermissionDto } from './dto/sharing.dto';

const collection = (id: string): ContentRef => ({ kind: 'collection', id });

@ApiTags('collection-permissions')
@ApiBearerAuth()
@Controller('collections/:collectionId/permissions')
export class CollectionPermissionsController {
  constructor(
    private readonly sharing: SharingService,
    private readonly presenter: ContentPermissionPresenter,
  ) {}

  @Post()
  @HttpCode(204)
  @ApiOperation({ operationId: 'inviteToCollection', summary: 'Give users and teams a role on the collection (null removes it); collection admins; reaches everything inside it' })
  async share(@CurrentUser() user: User, @Param('collectionId') collectionId: string, @Body() body: ShareContentDto): Promise<void> {
    await this.sharing.share(user, collection(collectionId), body);
  }

  @Get('users')
  @ApiOperation({ operationId: 'listUserPermissionsInCollection', summary: 'Users the collection is shared with, oldest grant first' })
  async listUsers(@CurrentUser() user: User, @Param('collectionId') collectionId: string, @Query() query: ListQueryDto) {
    const page = await this.sharing.listUsers(user, collection(collectionId), query.toPageRequest());
    return toEnvelope(page, (item) => this.presenter.presentUser(item));
  }

  @Get('teams')
  @ApiOperation({ operationId: 'listTeamPermissionsInCollection', summary: 'Teams the collection is shared with, oldest grant first' })
  async listTeams(@CurrentUser() user: User, @Param('collectionId') collectionId: string, @Query() query: ListQueryDto) {
    const page = await this.sharing.listTeams(user, collection(collectionId), query.toPageRequest());
    return toEnvelope(page, (item) => this.presenter.presentTeam(item));
  }

  @Get('aggregate')
  @ApiOperation({
    operationId: 'listPermissionsAggregateInCollection',
    summary: 'Everyone who can access the collection (by default level, organization role or grant) and their effective role',
  })
  async listAudience(@CurrentUser() user: User, @Param('collectionId') collectionId: string, @Query() query: ListAudienceQueryDto) {
    const page = await this.sharing.listAudience(user, collection(collectionId), query.role, query.toPageRequest());
    return toEnvelope(page, (item) => this.presenter.presentUser(item));
  }

  @Patch('users/:userId')
  @HttpCode(204)
  @ApiOperation({ operationId: 'updateUserPermissionInCollection', summary: "Set a member's role on the collection (null removes it)" })
  async updateUser(
    @CurrentUser() user: User,
    @Param('collectionId') collectionId: string,
    @Param('userId') userId: string,
    @Body() body: UpdatePermissionDto,
  ): Promise<void> {
    await this.sharing.setUserRole(user, collection(collectionId), userId, body.role);
  }

  @Delete('users/:userId')
  @ApiOperation({ operationId: 'removeUserFromCollection', summary: "Remove a user's grant on the collection" })
  @ApiResponse({ status: 205, description: 'Removed' })
  @ApiResponse({ status: 204, description: 'The user had no grant on the collection' })
  async removeUser(
    @CurrentUser() user: User,
    @Param('collectionId') collectionId: string,
    @Param('userId') userId: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<void> {
    res.status((await this.sharing.remove(user, collection(collectionId), 'user', userId)) ? 205 : 204);
  }

  @Patch('teams/:teamId')
  @HttpCode(204)
  @ApiOperation({ operationId: 'updateTeamPermissionInCollection', summary: "Set a team's role on the collection (null removes it)" })
  async updateTeam(
    @CurrentUser() user: User,
    @Param('collectionId') collectionId: string,
    @Param('teamId') teamId: string,
    @Body() body: UpdatePermissionDto,
  ): Promise<void> {
    await this.sharing.setTeamRole(user, collection(collectionId), teamId, body.role);
  }

  @Delete('teams/:teamId')
  @ApiOperation({ operationId: 'removeTeamFromCollection', summary: "Remove a team's grant on the collection" })
  @ApiResponse({ status: 205, description: 'Removed' })
  @ApiResponse({ status: 204, description: 'The team had no grant on the collection' })
  async removeTeam(
    @CurrentUser() user: User,
    @Param('collectionId') collectionId: string,
    @Param('teamId') teamId: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<void> {
    res.status((await this.sharing.remove(user, collection(collectionId), 'team', teamId)) ? 205 : 204);
  }
}
