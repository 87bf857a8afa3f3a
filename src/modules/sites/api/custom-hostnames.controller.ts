import { Controller, Delete, Get, HttpCode, Param, Patch, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { CurrentUser } from '../../identity/api/auth.decorators';
import { User } from '../../identity/domain/user';
import { CustomHostnamesService } from '../application/custom-hostnames.service';
import { CustomHostnamePresenter } from './custom-hostname.presenter';

const PROOF =
  'A site claims a host name with `hostname` on `updateSiteById`; it is served once a DNS TXT record named in `verification.name` holds `verification.value` ' +
  '(checked by a worker through the operator\'s resolvers, HOSTNAME_VERIFY_RESOLVER). Statuses: absent until the first check, `dns_no_cname` (no record yet), ' +
  '`dns_wrong_cname` (records, none with the value), `invalid_domain` (another site proved the name first), `internal_error` (the lookup failed), `live` (served).';

@ApiTags('custom-hostnames')
@ApiBearerAuth()
@Controller('custom-hostnames/:hostname')
export class CustomHostnamesController {
  constructor(
    private readonly hostnames: CustomHostnamesService,
    private readonly presenter: CustomHostnamePresenter,
  ) {}

  @Get()
  @ApiOperation({ operationId: 'getCustomHostname', summary: "A site's claim of a host name, and how to prove it", description: `Members who see the site; 404 otherwise. ${PROOF}` })
  async get(@CurrentUser() user: User, @Param('hostname') hostname: string) {
    return this.presenter.present(await this.hostnames.get(user, hostname));
  }

  @Patch()
  @HttpCode(204)
  @ApiOperation({ operationId: 'dnsRevalidateCustomHostname', summary: 'Check the DNS record again (site admins)', description: `A name already served is a 409. ${PROOF}` })
  async revalidate(@CurrentUser() user: User, @Param('hostname') hostname: string): Promise<void> {
    await this.hostnames.revalidate(user, hostname);
  }

  @Delete()
  @ApiResponse({ status: 205, description: "Removed from the caller's sites" })
  @ApiResponse({ status: 204, description: 'None of the sites the caller administers claims it' })
  @ApiOperation({ operationId: 'removeCustomHostname', summary: "Take the host name off the caller's sites (site admins)" })
  async remove(@CurrentUser() user: User, @Param('hostname') hostname: string, @Res({ passthrough: true }) res: Response): Promise<void> {
    res.status((await this.hostnames.remove(user, hostname)) ? 205 : 204);
  }
}
