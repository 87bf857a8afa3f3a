import { Injectable } from '@nestjs/common';
import { NotFoundError } from '@app/common';
import { Tx } from '../../../database/transactions';
import { AccessService, assertRole } from '../../access/application/access.service';
import { MemberRole } from '../../access/domain/roles';
import { User } from '../../identity/domain/user';
import { SiteOrm } from '../infrastructure/site.orm';
import { SitesRepository } from '../infrastructure/sites.repository';

/** A site with the caller's organization role (sites follow the organization role: there are no site grants). */
export interface SiteView {
  site: SiteOrm;
  role: MemberRole;
}

/**
 * Who may do what with sites. Members see the organization's sites (guests and strangers get
 * 404); `create` may create sites and edit their structure and settings; `admin` publishes,
 * unpublishes, deletes, changes the audience and manages share links and the visitor signing key.
 */
@Injectable()
export class SiteAccess {
  constructor(
    private readonly access: AccessService,
    private readonly sites: SitesRepository,
  ) {}

  async orgRole(caller: User, organizationId: string, minimum: MemberRole = 'read'): Promise<MemberRole> {
    const context = await this.access.requireMember(caller, organizationId);
    if (!context.orgRole) throw NotFoundError.of('Organization', organizationId);
    assertRole(context.orgRole, minimum, 'organization');
    return context.orgRole;
  }

  async read(caller: User, organizationId: string, siteId: string): Promise<SiteView> {
    const role = await this.orgRole(caller, organizationId);
    const site = await this.sites.findInOrganization(organizationId, siteId);
    if (!site) throw NotFoundError.of('Site', siteId);
    return { site, role };
  }

  /**
   * The site locked in `tx`: structure and settings writes of a site run one at a time. The role
   * is checked first, outside the transaction (`orgRole`), so a transaction never waits for a
   * second pooled connection while holding its own.
   */
  async lock(organizationId: string, siteId: string, tx: Tx): Promise<SiteOrm> {
    const site = await this.sites.lock(organizationId, siteId, tx);
    if (!site) throw NotFoundError.of('Site', siteId);
    return site;
  }
}
