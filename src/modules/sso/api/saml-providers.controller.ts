import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ListQueryDto, toEnvelope } from '@app/common';
import { CurrentUser } from '../../identity/api/auth.decorators';
import { User } from '../../identity/domain/user';
import { MemberPresenter } from '../../organizations/api/member.presenter';
import { SamlProvidersService } from '../application/saml-providers.service';
import { CreateSamlProviderDto, UpdateSamlProviderDto } from './dto/saml-provider.dto';
import { SamlProviderPresenter } from './saml-provider.presenter';

@ApiTags('sso')
@ApiBearerAuth()
@Controller('orgs/:organizationId')
export class SamlProvidersController {
  constructor(
    private readonly providers: SamlProvidersService,
    private readonly presenter: SamlProviderPresenter,
    private readonly members: MemberPresenter,
  ) {}

  @Get('saml')
  @ApiOperation({ operationId: 'listSAMLProvidersInOrganizationById', summary: 'SAML providers, oldest first (admins)' })
  async list(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Query() query: ListQueryDto) {
    const page = await this.providers.list(user, organizationId, query.toPageRequest());
    return toEnvelope(page, (view) => this.presenter.present(view));
  }

  @Post('saml')
  @HttpCode(201)
  @ApiOperation({
    operationId: 'createOrganizationSAMLProvider',
    summary: 'Create a SAML provider (admins). It is `pending` until it has both ssoURL and certificate; a foreign defaultTeam is a 400',
  })
  async create(
    @CurrentUser() user: User,
    @Param('organizationId') organizationId: string,
    @Body() body: CreateSamlProviderDto,
    @Res({ passthrough: true }) res: Response,
  ) {
    const presented = this.presenter.present(await this.providers.create(user, organizationId, body));
    res.setHeader('Location', presented.urls.location);
    return presented;
  }

  @Get('saml/:samlProviderId')
  @ApiOperation({ operationId: 'getOrganizationSAMLProviderById' })
  async get(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('samlProviderId') providerId: string) {
    return this.presenter.present(await this.providers.get(user, organizationId, providerId));
  }

  @Patch('saml/:samlProviderId')
  @ApiOperation({ operationId: 'updateOrganizationSAMLProvider', summary: 'Change a SAML provider (admins); defaultTeam null clears it' })
  async update(
    @CurrentUser() user: User,
    @Param('organizationId') organizationId: string,
    @Param('samlProviderId') providerId: string,
    @Body() body: UpdateSamlProviderDto,
  ) {
    return this.presenter.present(await this.providers.update(user, organizationId, providerId, body));
  }

  @Delete('saml/:samlProviderId')
  @ApiOperation({ operationId: 'deleteOrganizationSAMLProvider', summary: '205 when deleted, 204 when there was no such provider (admins)' })
  @ApiResponse({ status: 205, description: 'Deleted' })
  @ApiResponse({ status: 204, description: 'No such provider' })
  async remove(
    @CurrentUser() user: User,
    @Param('organizationId') organizationId: string,
    @Param('samlProviderId') providerId: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<void> {
    res.status((await this.providers.delete(user, organizationId, providerId)) ? 205 : 204);
  }

  @Get('sso')
  @ApiOperation({
    operationId: 'listSSOProviderLoginsInOrganization',
    summary: 'Active SAML providers to sign in with (any member); their startURL needs no token',
  })
  async logins(@CurrentUser() user: User, @Param('organizationId') organizationId: string) {
    const providers = await this.providers.logins(user, organizationId);
    return { items: providers.map((p) => this.presenter.presentLogin(p)) };
  }

  @Post('members/:userId/sso')
  @HttpCode(200)
  @ApiOperation({ operationId: 'setUserAsSSOMemberForOrganization', summary: 'Flag a member as an SSO member (admins); 404 when not a member' })
  async markSso(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('userId') userId: string) {
    return this.members.present(await this.providers.markSsoMember(user, organizationId, userId));
  }
}
