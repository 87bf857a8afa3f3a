import { Global, Injectable, Module } from '@nestjs/common';
import type { Tx } from '../../database/transactions';
import { SiteDirectory } from '../organizations/application/site-directory';
import { SitesRepository } from './infrastructure/sites.repository';
import { SitesCoreModule } from './sites-core.module';

@Injectable()
class SitesRepositoryDirectory extends SiteDirectory {
  constructor(private readonly sites: SitesRepository) {
    super();
  }

  async exists(organizationId: string, siteId: string, tx?: Tx): Promise<boolean> {
    return !!(await this.sites.findInOrganization(organizationId, siteId, tx));
  }
}

/** Makes the site directory available to organizations without a module cycle. */
@Global()
@Module({ imports: [SitesCoreModule], providers: [{ provide: SiteDirectory, useClass: SitesRepositoryDirectory }], exports: [SiteDirectory] })
export class SitesDirectoryModule {}
