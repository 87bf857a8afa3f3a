import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, InvalidError, NotFoundError, Page, PageRequest, newId } from '@app/common';
import { Transactions, Tx } from '../../../database/transactions';
import { AuditNotes } from '../../events/application/audit-notes';
import { AccessService, userViewer } from '../../access/application/access.service';
import { MemberRole } from '../../access/domain/roles';
import { UserViewer } from '../../identity/api/user.presenter';
import { IdentityService } from '../../identity/application/identity.service';
import { User } from '../../identity/domain/user';
import { planSharingChange } from '../../sharing/domain/content-grant';
import { TeamView, TeamsService } from '../../teams/application/teams.service';
import { SiteGrant, SitePrincipal } from '../domain/site-grant';
import { SiteGrantsRepository } from '../infrastructure/site-grants.repository';
import { SiteAccess } from './site-access';

export interface SiteUserGrantView {
  permission: MemberRole;
  user: User;
  viewer: UserViewer;
}

export interface SiteTeamGrantView {
  permission: MemberRole;
  team: TeamView;
}

/**
 * Sharing a site with users and teams of its organization (GitBook's site permission overrides).
 * Changing grants needs `admin` on the site; listing them, seeing it. Users must be members of the
 * organization (guests included) and teams its own: ids in a body that are not are a 400 naming them
 * and nothing is written; in the path, a 404. A role of null removes the grants.
 */
@Injectable()
export class SiteGrantsService {
  constructor(
    private readonly siteAccess: SiteAccess,
    private readonly grants: SiteGrantsRepository,
    private readonly access: AccessService,
    private readonly teams: TeamsService,
    private readonly identity: IdentityService,
    private readonly transactions: Transactions,
    private readonly audit: AuditNotes,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Sets (or with role null removes) the role of every user and team named, in one transaction. */
  async invite(caller: User, organizationId: string, siteId: string, input: { role: MemberRole | null; users?: string[]; teams?: string[] }): Promise<void> {
    const { site } = await this.siteAccess.read(caller, organizationId, siteId, 'admin');
    const change = planSharingChange(input);
    await this.transactions.run(async (tx) => {
      await this.access.assertMembers(organizationId, change.users, 'users', tx);
      const found = new Set((await this.teams.findManyInOrganization(organizationId, change.teams, tx)).map((team) => team.id));
      const strangers = change.teams.filter((id) => !found.has(id));
      if (strangers.length > 0) throw new InvalidError(`teams: not a team of this organization: ${strangers.map((id) => `"${id}"`).join(', ')}`);
      for (const [principal, ids] of [['user', change.users], ['team', change.teams]] as [SitePrincipal, string[]][]) {
        await this.apply(organizationId, site.id, principal, ids, change.role, tx);
      }
    });
  }

  /** PATCH .../permissions/{users|teams}/{id}: sets the role (null removes it); 404 for non-members and other organizations' teams. */
  async setRole(caller: User, organizationId: string, siteId: string, principal: SitePrincipal, principalId: string, role: MemberRole | null): Promise<void> {
    const { site } = await this.siteAccess.read(caller, organizationId, siteId, 'admin');
    await this.assertPrincipal(organizationId, principal, principalId);
    await this.transactions.run((tx) => this.apply(organizationId, site.id, principal, [principalId], role, tx));
  }

  /** Whether the principal had a grant on the site. */
  async remove(caller: User, organizationId: string, siteId: string, principal: SitePrincipal, principalId: string): Promise<boolean> {
    const { site } = await this.siteAccess.read(caller, organizationId, siteId, 'admin');
    return (await this.transactions.run((tx) => this.apply(organizationId, site.id, principal, [principalId], null, tx))) > 0;
  }

  async listUsers(caller: User, organizationId: string, siteId: string, request: PageRequest): Promise<Page<SiteUserGrantView>> {
    const { site } = await this.siteAccess.read(caller, organizationId, siteId);
    const page = await this.grants.list(site.id, 'user', request);
    const [users, context] = await Promise.all([this.identity.findByIds(page.items.map((grant) => grant.principalId)), this.access.context(caller, organizationId)]);
    const viewer = userViewer(caller.id, context);
    // A user deleted between the two reads is left out.
    return { ...page, items: page.items.flatMap((grant) => (users.has(grant.principalId) ? [{ permission: grant.role, user: users.get(grant.principalId)!, viewer }] : [])) };
  }

  async listTeams(caller: User, organizationId: string, siteId: string, request: PageRequest): Promise<Page<SiteTeamGrantView>> {
    const { site } = await this.siteAccess.read(caller, organizationId, siteId);
    const page = await this.grants.list(site.id, 'team', request);
    const teams = await this.teams.findManyInOrganization(organizationId, page.items.map((grant) => grant.principalId));
    const views = new Map((await this.teams.viewsFor(caller.id, organizationId, teams)).map((view) => [view.team.id, view]));
    return { ...page, items: page.items.flatMap((grant) => (views.has(grant.principalId) ? [{ permission: grant.role, team: views.get(grant.principalId)! }] : [])) };
  }

  private async assertPrincipal(organizationId: string, principal: SitePrincipal, principalId: string): Promise<void> {
    if (principal === 'user') {
      if (!(await this.access.context(principalId, organizationId)).isMember) throw NotFoundError.of('Member', principalId);
    } else if (!(await this.teams.findInOrganization(organizationId, principalId))) {
      throw NotFoundError.of('Team', principalId);
    }
  }

  /**
   * Sets the principals' role on the site (null removes their grants) and names the rows written to
   * the audit log, which does not see raw SQL by itself. Returns how many grants it changed. New
   * rows get an id and a creation time; an existing grant keeps both and takes the role.
   */
  private async apply(organizationId: string, siteId: string, principal: SitePrincipal, ids: string[], role: MemberRole | null, tx: Tx): Promise<number> {
    if (role === null) {
      const removed = await this.grants.remove(siteId, principal, ids, tx);
      this.audit.noteDeleted(tx, 'site_grants', organizationId, removed);
      return removed.length;
    }
    const createdAt = this.clock.now();
    const grants = ids.map((principalId): SiteGrant => ({ id: newId(), organizationId, siteId, principal, principalId, role, createdAt }));
    const written = await this.grants.upsert(grants, tx);
    this.audit.noteUpserted(tx, 'site_grants', organizationId, written);
    return written.length;
  }
}
