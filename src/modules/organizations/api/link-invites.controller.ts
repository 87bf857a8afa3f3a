import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ListQueryDto, toEnvelope } from '@app/common';
import { CurrentUser } from '../../identity/api/auth.decorators';
import { User } from '../../identity/domain/user';
import { LinkInvitesService } from '../application/link-invites.service';
import { CreateLinkInviteDto, UpdateLinkInviteDto } from './dto/link-invite.dto';
import { LinkInvitePresenter } from './link-invite.presenter';

@ApiTags('organizations')
@ApiBearerAuth()
@Controller('orgs/:organizationId/link-invites')
export class LinkInvitesController {
  constructor(
    private readonly invites: LinkInvitesService,
    private readonly presenter: LinkInvitePresenter,
  ) {}

  @Get()
  @ApiOperation({ operationId: 'listOrganizationInviteLinks', summary: 'List invite links, newest first (admins)' })
  async list(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Query() query: ListQueryDto) {
    const page = await this.invites.list(user, organizationId, query.toPageRequest());
    return toEnvelope(page, (view) => this.presenter.present(view));
  }

  @Post()
  @HttpCode(201)
  @ApiOperation({
    operationId: 'createOrganizationInvite',
    summary: 'Create an invite link (admins, while "inviteLinks" is on; else 403). Its id is the secret to share',
  })
  async create(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Body() body: CreateLinkInviteDto) {
    return this.presenter.present(await this.invites.create(user, organizationId, body));
  }

  @Get(':inviteId')
  @ApiOperation({
    operationId: 'getOrganizationInviteLink',
    summary: 'Get an invite link: admins always; anyone holding the id while the link can be used',
  })
  async get(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('inviteId') inviteId: string) {
    return this.presenter.present(await this.invites.get(user, organizationId, inviteId));
  }

  @Patch(':inviteId')
  @ApiOperation({ operationId: 'updateOrganizationInviteById', summary: 'Change the role an invite link grants (admins)' })
  async update(
    @CurrentUser() user: User,
    @Param('organizationId') organizationId: string,
    @Param('inviteId') inviteId: string,
    @Body() body: UpdateLinkInviteDto,
  ) {
    return this.presenter.present(await this.invites.updateRole(user, organizationId, inviteId, body));
  }

  @Delete(':inviteId')
  @ApiOperation({ operationId: 'deleteOrganizationInviteById', summary: 'Delete an invite link (admins); it stops working at once' })
  @ApiResponse({ status: 205, description: 'The link was deleted' })
  @ApiResponse({ status: 204, description: 'There was no such link' })
  async remove(
    @CurrentUser() user: User,
    @Param('organizationId') organizationId: string,
    @Param('inviteId') inviteId: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<void> {
    res.status((await this.invites.remove(user, organizationId, inviteId)) ? 205 : 204);
  }
}
