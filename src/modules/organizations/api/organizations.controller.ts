import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ListQueryDto, toEnvelope } from '@app/common';
import { CurrentUser } from '../../identity/api/auth.decorators';
import { User } from '../../identity/domain/user';
import { OrganizationsService } from '../application/organizations.service';
import { CreateOrganizationDto } from './dto/create-organization.dto';
import { InviteUsersDto } from './dto/invite-users.dto';
import { UpdateOrganizationDto } from './dto/update-organization.dto';
import { OrganizationPresenter } from './organization.presenter';

@ApiTags('organizations')
@ApiBearerAuth()
@Controller('orgs')
export class OrganizationsController {
  constructor(
    private readonly organizations: OrganizationsService,
    private readonly presenter: OrganizationPresenter,
  ) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    operationId: 'createOrganization',
    summary: 'Create an organization; the caller becomes its admin',
    description: "A token issued by an organization's SAML sign-in acts in that organization only: it gets 403 here.",
  })
  async create(@CurrentUser() user: User, @Body() body: CreateOrganizationDto) {
    return this.presenter.present(await this.organizations.create(user, body));
  }

  @Get()
  @ApiOperation({
    operationId: 'listOrganizationsForAuthenticatedUser',
    description: "A token issued by an organization's SAML sign-in lists only that organization.",
  })
  async list(@CurrentUser() user: User, @Query() query: ListQueryDto) {
    const page = await this.organizations.listForCaller(user, query.toPageRequest());
    return toEnvelope(page, (view) => this.presenter.present(view));
  }

  @Get(':organizationId')
  @ApiOperation({ operationId: 'getOrganizationById' })
  async get(@CurrentUser() user: User, @Param('organizationId') organizationId: string) {
    return this.presenter.present(await this.organizations.get(user, organizationId));
  }

  @Patch(':organizationId')
  @ApiOperation({
    operationId: 'updateOrganizationById',
    summary: 'Change settings (admins). A taken hostname is a 409; an unknown default site or a merge rule naming a non-member is a 400',
  })
  async update(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Body() body: UpdateOrganizationDto) {
    return this.presenter.present(await this.organizations.update(user, organizationId, body));
  }

  @Post(':organizationId/invites')
  @HttpCode(200)
  @ApiOperation({ operationId: 'inviteUsersToOrganization', summary: 'Invite users; unknown e-mails become pending invites' })
  invite(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Body() body: InviteUsersDto) {
    return this.organizations.invite(user, organizationId, body);
  }
}
