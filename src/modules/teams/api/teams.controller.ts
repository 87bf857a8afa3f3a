import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Put, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ListQueryDto, toEnvelope } from '@app/common';
import { CurrentUser } from '../../identity/api/auth.decorators';
import { User } from '../../identity/domain/user';
import { TeamsService } from '../application/teams.service';
import { CreateTeamDto } from './dto/create-team.dto';
import { ListMemberTeamsQueryDto, ListTeamsQueryDto } from './dto/list-teams.query';
import { SetTeamMemberDto, UpdateTeamMembersDto } from './dto/team-members.dto';
import { UpdateTeamDto } from './dto/team-title.dto';
import { TeamMemberPresenter } from './team-member.presenter';
import { TeamPresenter } from './team.presenter';

@ApiTags('teams')
@ApiBearerAuth()
@Controller('orgs/:organizationId')
export class TeamsController {
  constructor(
    private readonly teams: TeamsService,
    private readonly presenter: TeamPresenter,
    private readonly memberPresenter: TeamMemberPresenter,
  ) {}

  @Get('teams')
  @ApiOperation({ operationId: 'listTeamsInOrganizationById', summary: 'Teams of the organization, oldest first' })
  async list(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Query() query: ListTeamsQueryDto) {
    const page = await this.teams.list(user, organizationId, { owner: query.owner, title: query.title }, query.toPageRequest());
    return toEnvelope(page, (view) => this.presenter.present(view));
  }

  @Put('teams')
  @HttpCode(201)
  @ApiOperation({ operationId: 'createOrganizationTeam', summary: 'Create a team (organization admins)' })
  async create(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Body() body: CreateTeamDto) {
    return this.presenter.present(await this.teams.create(user, organizationId, body));
  }

  @Get('teams/:teamId')
  @ApiOperation({ operationId: 'getTeamInOrganizationById' })
  async get(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('teamId') teamId: string) {
    return this.presenter.present(await this.teams.get(user, organizationId, teamId));
  }

  @Patch('teams/:teamId')
  @ApiOperation({ operationId: 'updateTeamInOrganizationById', summary: 'Rename a team (organization admins and team owners)' })
  async update(
    @CurrentUser() user: User,
    @Param('organizationId') organizationId: string,
    @Param('teamId') teamId: string,
    @Body() body: UpdateTeamDto,
  ) {
    return this.presenter.present(await this.teams.rename(user, organizationId, teamId, body.title));
  }

  @Delete('teams/:teamId')
  @ApiOperation({ operationId: 'removeTeamFromOrganizationById', summary: '205 when deleted, 204 when there was no such team' })
  @ApiResponse({ status: 205, description: 'Deleted' })
  @ApiResponse({ status: 204, description: 'No such team' })
  async remove(
    @CurrentUser() user: User,
    @Param('organizationId') organizationId: string,
    @Param('teamId') teamId: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<void> {
    res.status((await this.teams.delete(user, organizationId, teamId)) ? 205 : 204);
  }

  @Get('teams/:teamId/members')
  @ApiOperation({ operationId: 'listTeamMembersInOrganizationById', summary: 'Members of a team, in the order they were added' })
  async listMembers(
    @CurrentUser() user: User,
    @Param('organizationId') organizationId: string,
    @Param('teamId') teamId: string,
    @Query() query: ListQueryDto,
  ) {
    const page = await this.teams.listMembers(user, organizationId, teamId, query.toPageRequest());
    return toEnvelope(page, (view) => this.memberPresenter.present(view));
  }

  @Put('teams/:teamId/members')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'updateMembersInOrganizationTeam',
    summary: 'Add, remove and re-role members in one transaction; a user in both add and remove is removed',
  })
  async updateMembers(
    @CurrentUser() user: User,
    @Param('organizationId') organizationId: string,
    @Param('teamId') teamId: string,
    @Body() body: UpdateTeamMembersDto,
  ): Promise<void> {
    await this.teams.updateMembers(user, organizationId, teamId, body);
  }

  @Put('teams/:teamId/members/:userId')
  @HttpCode(204)
  @ApiOperation({ operationId: 'addMemberToOrganizationTeamById', summary: 'Add a member to the team or set their role' })
  async setMember(
    @CurrentUser() user: User,
    @Param('organizationId') organizationId: string,
    @Param('teamId') teamId: string,
    @Param('userId') userId: string,
    @Body() body: SetTeamMemberDto,
  ): Promise<void> {
    await this.teams.setMember(user, organizationId, teamId, userId, body.role);
  }

  @Delete('teams/:teamId/members/:userId')
  @ApiOperation({ operationId: 'deleteMemberFromOrganizationTeamById', summary: '205 when removed, 204 when not in the team' })
  @ApiResponse({ status: 205, description: 'Removed' })
  @ApiResponse({ status: 204, description: 'Was not in the team' })
  async removeMember(
    @CurrentUser() user: User,
    @Param('organizationId') organizationId: string,
    @Param('teamId') teamId: string,
    @Param('userId') userId: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<void> {
    res.status((await this.teams.removeMember(user, organizationId, teamId, userId)) ? 205 : 204);
  }

  @Get('members/:userId/teams')
  @ApiOperation({ operationId: 'listTeamsForOrganizationMember', summary: 'Teams a member belongs to, with their role in each' })
  async listForMember(
    @CurrentUser() user: User,
    @Param('organizationId') organizationId: string,
    @Param('userId') userId: string,
    @Query() query: ListMemberTeamsQueryDto,
  ) {
    const page = await this.teams.listForMember(user, organizationId, userId, { title: query.title }, query.toPageRequest());
    return toEnvelope(page, (view) => this.presenter.presentForMember(view));
  }
}
