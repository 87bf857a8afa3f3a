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

const space = (id: string): ContentRef => ({ kind: 'space', id });

@ApiTags('space-permissions')
@ApiBearerAuth()
@Controller('spaces/:spaceId/permissions')
export class SpacePermissionsController {
  constructor(
    private readonly sharing: SharingService,
    private readonly presenter: ContentPermissionPresenter,
  ) {}

  @Post()
  @HttpCode(204)
  @ApiOperation({ operationId: 'inviteToSpace', summary: 'Give users and teams a role on the space (null removes it); space admins' })
  async share(@CurrentUser() user: User, @Param('spaceId') spaceId: string, @Body() body: ShareContentDto): Promise<void> {
    await this.sharing.share(user, space(spaceId), body);
  }

  @Get('users')
  @ApiOperation({ operationId: 'listUserPermissionsInSpace', summary: 'Users the space is shared with, oldest grant first' })
  async listUsers(@CurrentUser() user: User, @Param('spaceId') spaceId: string, @Query() query: ListQueryDto) {
    const page = await this.sharing.listUsers(user, space(spaceId), query.toPageRequest());
    return toEnvelope(page, (item) => this.presenter.presentUser(item));
  }

  @Get('teams')
  @ApiOperation({ operationId: 'listTeamPermissionsInSpace', summary: 'Teams the space is shared with, oldest grant first' })
  async listTeams(@CurrentUser() user: User, @Param('spaceId') spaceId: string, @Query() query: ListQueryDto) {
    const page = await this.sharing.listTeams(user, space(spaceId), query.toPageRequest());
    return toEnvelope(page, (item) => this.presenter.presentTeam(item));
  }

  @Get('aggregate')
  @ApiOperation({
    operationId: 'listPermissionsAggregateInSpace',
    summary: 'Everyone who can access the space (by default level, organization role or grant) and their effective role',
  })
  async listAudience(@CurrentUser() user: User, @Param('spaceId') spaceId: string, @Query() query: ListAudienceQueryDto) {
    const page = await this.sharing.listAudience(user, space(spaceId), query.role, query.toPageRequest());
    return toEnvelope(page, (item) => this.presenter.presentUser(item));
  }

  @Patch('users/:userId')
  @HttpCode(204)
  @ApiOperation({ operationId: 'updateUserPermissionInSpace', summary: "Set a member's role on the space (null removes it)" })
  async updateUser(
    @CurrentUser() user: User,
    @Param('spaceId') spaceId: string,
    @Param('userId') userId: string,
    @Body() body: UpdatePermissionDto,
  ): Promise<void> {
    await this.sharing.setUserRole(user, space(spaceId), userId, body.role);
  }

  @Delete('users/:userId')
  @ApiOperation({ operationId: 'removeUserFromSpace', summary: "Remove a user's grant on the space" })
  @ApiResponse({ status: 205, description: 'Removed' })
  @ApiResponse({ status: 204, description: 'The user had no grant on the space' })
  async removeUser(
    @CurrentUser() user: User,
    @Param('spaceId') spaceId: string,
    @Param('userId') userId: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<void> {
    res.status((await this.sharing.remove(user, space(spaceId), 'user', userId)) ? 205 : 204);
  }

  @Patch('teams/:teamId')
  @HttpCode(204)
  @ApiOperation({ operationId: 'updateTeamPermissionInSpace', summary: "Set a team's role on the space (null removes it)" })
  async updateTeam(
    @CurrentUser() user: User,
    @Param('spaceId') spaceId: string,
    @Param('teamId') teamId: string,
    @Body() body: UpdatePermissionDto,
  ): Promise<void> {
    await this.sharing.setTeamRole(user, space(spaceId), teamId, body.role);
  }

  @Delete('teams/:teamId')
  @ApiOperation({ operationId: 'removeTeamFromSpace', summary: "Remove a team's grant on the space" })
  @ApiResponse({ status: 205, description: 'Removed' })
  @ApiResponse({ status: 204, description: 'The team had no grant on the space' })
  async removeTeam(
    @CurrentUser() user: User,
    @Param('spaceId') spaceId: string,
    @Param('teamId') teamId: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<void> {
    res.status((await this.sharing.remove(user, space(spaceId), 'team', teamId)) ? 205 : 204);
  }
}
