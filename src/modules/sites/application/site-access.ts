import { Injectable } from '@nestjs/common';
import { NotFoundError } from '@app/common';
import { Tx } from '../../../database/transactions';
import { AccessService, assertRole } from '../../access/application/access.service';
import { MemberRole, OrgRole } from '../../access/domain/roles';
import { User } from '../../identity/domain/user';
import { TeamsService } from '../../teams/application/teams.service';
import { siteRole } from '../domain/site-grant';
import { SiteGrantsRepository } from '../infrastructure/site-grants.repository';
import { SiteOrm } from '../infrastructure/site.orm';
import { SitesRepository } from '../infrastructure/sites.repository';

/** A site with the caller's role on it. */
export interface SiteView {
  site: SiteOrm;
  role: MemberRole;
}

/**
 * Who may do what with sites. A member's role on a site is their organization role, raised by the
 * site's grants to them or their teams; guests see only the sites granted to them, and a site the
 * caller has no role on is a 404 (as for strangers). `create` edits a site's structure and settings;
 * `admin` publishes, unpublishes, deletes, changes the audience and manages share links, the
 * visitor signing key and the site's grants. Creating a site needs `create` in the organization.
 */
@Injectable()
export class SiteAccess {
  constructor(
    private readonly access: AccessService,
    private readonly sites: SitesRepository,
    private readonly grants: SiteGrantsRepository,
    private readonly teams: TeamsService,
  ) {}

  /** The caller's organization role, for use cases on the organization's sites as a whole (creating one). Guests 404. */
  async orgRole(caller: User, organizationId: string, minimum: MemberRole = 'read'): Promise<MemberRole> {
    const context = await this.access.requireMember(caller, organizationId);
    if (!context.orgRole) throw NotFoundError.of('Organization', organizationId);
    assertRole(context.orgRole, minimum, 'organization');
    return context.orgRole;
  }

  /**
   * The caller's role on each site they may see: every site for members with an organization role,
   * the granted ones for guests (404 when a guest has none, as before sites could be shared).
   * `granted` holds the sites whose grants give the caller a role (none for organization admins).
   */
  async visibleSites(caller: User, organizationId: string): Promise<{ orgRole: MemberRole | null; granted: Map<string, MemberRole> }> {
    const context = await this.access.requireMember(caller, organizationId);
    const orgRole = context.orgRole ?? null;
    const granted = await this.granted(caller, organizationId, orgRole);
    if (orgRole === null && granted.size === 0) throw NotFoundError.of('Organization', organizationId);
    return { orgRole, granted };
  }

  /**
   * The caller's role on the site, at least `minimum` (403 otherwise). 404 for non-members and for
   * those with no role on it, whether or not the site exists: the site itself is not read.
   */
  async role(caller: User, organizationId: string, siteId: string, minimum: MemberRole = 'read'): Promise<MemberRole> {
    const role = await this.effectiveRole(caller, organizationId, siteId);
    assertRole(role, minimum, 'site');
    return role;
  }

  /** The site and the caller's role on it (at least `minimum`); 404 when it does not exist for them. */
  async read(caller: User, organizationId: string, siteId: string, minimum: MemberRole = 'read'): Promise<SiteView> {
    const role = await this.effectiveRole(caller, organizationId, siteId);
    const site = await this.sites.findInOrganization(organizationId, siteId);
    if (!site) throw NotFoundError.of('Site', siteId);
    assertRole(role, minimum, 'site');
    return { site, role };
  }

  /**
   * The site locked in `tx`: structure and settings writes of a site run one at a time. The role
   * is checked first, outside the transaction (`role`), so a transaction never waits for a
   * second pooled connection while holding its own.
   */
  async lock(organizationId: string, siteId: string, tx: Tx): Promise<SiteOrm> {
    const site = await this.sites.lock(organizationId, siteId, tx);
    if (!site) throw NotFoundError.of('Site', siteId);
    return site;
  }

  private async effectiveRole(caller: User, organizationId: string, siteId: string): Promise<MemberRole> {
    const context = await this.access.requireMember(caller, organizationId);
    const orgRole: OrgRole = context.orgRole ?? null;
    const role = siteRole(orgRole, (await this.granted(caller, organizationId, orgRole, siteId)).get(siteId));
    // Only a guest the site is not shared with has no role: the organization is not theirs to see (as before sites were shared).
    if (!role) throw NotFoundError.of('Organization', organizationId);
    return role;
  }

  /**
   * The roles the organization's site grants (or only `siteId`'s) give the caller. None for organization
   * admins, who have every role anyway, nor for a published site's reader token, which is nobody's member.
   */
  private async granted(caller: User, organizationId: string, orgRole: OrgRole, siteId?: string): Promise<Map<string, MemberRole>> {
    if (orgRole === 'admin' || caller.siteScope) return new Map();
    if (caller.integrationScope) return this.integrationGrants(caller.integrationScope, organizationId, siteId);
    return this.grants.grantedRoles(organizationId, caller.id, await this.teams.teamIdsOf(organizationId, caller.id), siteId);
  }

  /** An installation token reads the sites it is installed on (all of them for `all`) with `site:metadata:read`. */
  private async integrationGrants(grant: NonNullable<User['integrationScope']>, organizationId: string, siteId?: string): Promise<Map<string, MemberRole>> {
    if (grant.organizationId !== organizationId || !grant.scopes.includes('site:metadata:read')) return new Map();
    const ids = grant.siteIds === 'all' ? await this.sites.idsInOrganization(organizationId) : grant.siteIds;
    return new Map(ids.filter((id) => !siteId || id === siteId).map((id) => [id, 'read' as MemberRole]));
  }
}
