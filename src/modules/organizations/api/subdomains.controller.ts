import { Controller, Get, Param } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../../identity/api/auth.decorators';
import { User } from '../../identity/domain/user';
import { OrganizationsService } from '../application/organizations.service';
import { SubdomainPresenter } from './subdomain.presenter';

@ApiTags('subdomains')
@ApiBearerAuth()
@Controller('subdomains')
export class SubdomainsController {
  constructor(
    private readonly organizations: OrganizationsService,
    private readonly presenter: SubdomainPresenter,
  ) {}

  @Get(':subdomain')
  @ApiOperation({
    operationId: 'getSubdomain',
    summary: "The organization using a default hostname, for that organization's members",
    description:
      'Compared case-insensitively. A subdomain nobody uses and one used by an organization the caller is not a member of both answer 404; ' +
      'one that does not match `^[a-z0-9][a-z0-9-]{1,30}[a-z0-9]$` answers 400. `isActive` is always true: only hostnames in use are kept.',
  })
  async get(@CurrentUser() user: User, @Param('subdomain') subdomain: string) {
    const organization = await this.organizations.bySubdomain(user, subdomain);
    return this.presenter.present({ ...organization, hostname: organization.hostname! });
  }
}
