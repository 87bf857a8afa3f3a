import { Body, Controller, Delete, Get, Param, Patch, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { toEnvelope } from '@app/common';
import { CurrentUser } from '../../identity/api/auth.decorators';
import { User } from '../../identity/domain/user';
import { MembersService } from '../application/members.service';
import { ListMembersQueryDto } from './dto/list-members.dto';
import { UpdateMemberDto } from './dto/update-member.dto';
import { MemberPresenter } from './member.presenter';

@ApiTags('organizations')
@ApiBearerAuth()
@Controller('orgs/:organizationId/members')
export class MembersController {
  constructor(
    private readonly members: MembersService,
    private readonly presenter: MemberPresenter,
  ) {}

  @Get()
  @ApiOperation({ operationId: 'listMembersInOrganizationById', summary: 'List members (non-guest members only)' })
  async list(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Query() query: ListMembersQueryDto) {
    const page = await this.members.list(user, organizationId, query, query.toPageRequest());
    return toEnvelope(page, (view) => this.presenter.present(view));
  }

  @Get(':userId')
  @ApiOperation({ operationId: 'getMemberInOrganizationById' })
  async get(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('userId') userId: string) {
    return this.presenter.present(await this.members.get(user, organizationId, userId));
  }

  @Patch(':userId')
  @ApiOperation({ operationId: 'updateMemberInOrganizationById', summary: 'Change a role (admins); the last admin cannot be demoted (409)' })
  async update(
    @CurrentUser() user: User,
    @Param('organizationId') organizationId: string,
    @Param('userId') userId: string,
    @Body() body: UpdateMemberDto,
  ) {
    return this.presenter.present(await this.members.updateRole(user, organizationId, userId, body.role));
  }

  @Delete(':userId')
  @ApiOperation({ operationId: 'removeMemberFromOrganizationById', summary: 'Remove a member (admins, or the member themselves)' })
  @ApiResponse({ status: 205, description: 'The member was removed' })
  @ApiResponse({ status: 204, description: 'The user was not a member' })
  @ApiResponse({ status: 409, description: 'The last admin cannot be removed' })
  async remove(
    @CurrentUser() user: User,
    @Param('organizationId') organizationId: string,
    @Param('userId') userId: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<void> {
    const removed = await this.members.remove(user, organizationId, userId);
    res.status(removed ? 205 : 204);
  }
}
