import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ListQueryDto, toEnvelope } from '@app/common';
import { CurrentUser } from '../../identity/api/auth.decorators';
import { User } from '../../identity/domain/user';
import { ShareContentDto, UpdatePermissionDto } from '../../sharing/api/dto/sharing.dto';
import { SiteAudienceService } from '../application/site-audience.service';
import { SiteGrantsService } from '../application/site-grants.service';
import { SiteUserPresenter } from './site-user.presenter';

/** Who can work on a site, and sharing it with users and teams (site permission overrides). */
@ApiTags('site-users')
@ApiBearerAuth()
@Controller('orgs/:organizationId/sites/:siteId/permissions')
export class SiteUsersController {
  constructor(
    private readonly audience: SiteAudienceService,
    private readonly grants: SiteGrantsService,
    private readonly presenter: SiteUserPresenter,
  ) {}

  @Get('aggregate')
  @ApiOperation({
    operationId: 'listPermissionsAggregateInSite',
    summary: 'Everyone who can work on the site, with their role on it, oldest member first (whoever sees the site)',
    description:
      "Members with an organization role and everyone the site is shared with (guests too, directly or through a team). `permission` is the organization role raised by the site's grants; `origin` is the organization when no grant raises it, else `{type: 'site', reason: 'member'}` or `{type: 'site', reason: 'team', team}`. Disabled members are listed with `disabled: true`.",
  })
  async aggregate(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Query() query: ListQueryDto) {
    const page = await this.audience.list(user, organizationId, siteId, query.toPageRequest());
    return toEnvelope(page, (view) => this.presenter.present(view));
  }

  @Post()
  @HttpCode(204)
  @ApiOperation({
    operationId: 'inviteToSite',
    summary: "Give users and teams a role on the site (null removes it); site admins",
    description: 'Users must be members of the organization (guests included; a guest then sees the site), teams teams of it: others are a 400 naming them and nothing changes. A grant raises the organization role on this site, never lowers it.',
  })
  async invite(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Body() body: ShareContentDto): Promise<void> {
    await this.grants.invite(user, organizationId, siteId, body);
  }

  @Get('users')
  @ApiOperation({ operationId: 'listUserPermissionsInSite', summary: 'Users the site is shared with, oldest grant first' })
  async listUsers(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Query() query: ListQueryDto) {
    const page = await this.grants.listUsers(user, organizationId, siteId, query.toPageRequest());
    return toEnvelope(page, (item) => this.presenter.presentUserGrant(item));
  }

  @Patch('users/:userId')
  @HttpCode(204)
  @ApiOperation({ operationId: 'updateUserPermissionInSite', summary: "Set a member's role on the site (null removes it); site admins" })
  async updateUser(
    @CurrentUser() user: User,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Param('userId') userId: string,
    @Body() body: UpdatePermissionDto,
  ): Promise<void> {
    await this.grants.setRole(user, organizationId, siteId, 'user', userId, body.role);
  }

  @Delete('users/:userId')
  @ApiOperation({ operationId: 'removeUserFromSite', summary: "Remove a user's grant on the site; site admins" })
  @ApiResponse({ status: 205, description: 'Removed' })
  @ApiResponse({ status: 204, description: 'The user had no grant on the site' })
  async removeUser(
    @CurrentUser() user: User,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Param('userId') userId: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<void> {
    res.status((await this.grants.remove(user, organizationId, siteId, 'user', userId)) ? 205 : 204);
  }

  @Get('teams')
  @ApiOperation({ operationId: 'listTeamPermissionsInSite', summary: 'Teams the site is shared with, oldest grant first' })
  async listTeams(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Query() query: ListQueryDto) {
    const page = await this.grants.listTeams(user, organizationId, siteId, query.toPageRequest());
    return toEnvelope(page, (item) => this.presenter.presentTeamGrant(item));
  }

  @Patch('teams/:teamId')
  @HttpCode(204)
  @ApiOperation({ operationId: 'updateTeamPermissionInSite', summary: "Set a team's role on the site (null removes it); site admins" })
  async updateTeam(
    @CurrentUser() user: User,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Param('teamId') teamId: string,
    @Body() body: UpdatePermissionDto,
  ): Promise<void> {
    await this.grants.setRole(user, organizationId, siteId, 'team', teamId, body.role);
  }

  @Delete('teams/:teamId')
  @ApiOperation({ operationId: 'removeTeamFromSite', summary: "Remove a team's grant on the site; site admins" })
  @ApiResponse({ status: 205, description: 'Removed' })
  @ApiResponse({ status: 204, description: 'The team had no grant on the site' })
  async removeTeam(
    @CurrentUser() user: User,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Param('teamId') teamId: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<void> {
    res.status((await this.grants.remove(user, organizationId, siteId, 'team', teamId)) ? 205 : 204);
  }
}
