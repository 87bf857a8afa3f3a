import { Controller, Get, Param } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../../identity/api/auth.decorators';
import { User } from '../../identity/domain/user';
import { JoiningService } from '../application/joining.service';
import { OrganizationPresenter } from './organization.presenter';

@ApiTags('organizations')
@ApiBearerAuth()
@Controller('email-domains')
export class EmailDomainsController {
  constructor(
    private readonly joining: JoiningService,
    private readonly presenter: OrganizationPresenter,
  ) {}

  @Get(':emailDomain/orgs')
  @ApiOperation({
    operationId: 'getOrganizationsForEmailDomain',
    summary: "Organizations joinable by the caller's own verified e-mail domain (any other domain: an empty list)",
  })
  async list(@CurrentUser() user: User, @Param('emailDomain') emailDomain: string) {
    const views = await this.joining.organizationsForDomain(user, emailDomain);
    return { organizations: views.map((view) => this.presenter.present(view)) };
  }
}
