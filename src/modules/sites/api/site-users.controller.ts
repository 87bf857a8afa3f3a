import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ListQueryDto, toEnvelope } from '@app/common';
import { CurrentUser } from '../../identity/api/auth.decorators';
import { User } from '../../identity/domain/user';
import { SiteAudienceService } from '../application/site-audience.service';
import { SiteUserPresenter } from './site-user.presenter';

@ApiTags('site-users')
@ApiBearerAuth()
@Controller('orgs/:organizationId/sites/:siteId/permissions')
export class SiteUsersController {
  constructor(
    private readonly audience: SiteAudienceService,
    private readonly presenter: SiteUserPresenter,
  ) {}

  @Get('aggregate')
  @ApiOperation({
    operationId: 'listPermissionsAggregateInSite',
    summary: "Everyone who can work on the site: the organization's members with a role, oldest member first (members; guests 404)",
    description: 'Sites have no grants of their own here: each item is a member with their organization role, `origin` the organization; disabled members are listed with `disabled: true`.',
  })
  async aggregate(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Query() query: ListQueryDto) {
    const page = await this.audience.list(user, organizationId, siteId, query.toPageRequest());
    return toEnvelope(page, (view) => this.presenter.present(view));
  }
}
