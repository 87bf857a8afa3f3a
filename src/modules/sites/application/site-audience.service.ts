import { Injectable } from '@nestjs/common';
import { Page, PageRequest } from '@app/common';
import { MemberRole } from '../../access/domain/roles';
import { UserViewer } from '../../identity/api/user.presenter';
import { User } from '../../identity/domain/user';
import { MembersService } from '../../organizations/application/members.service';
import { Member } from '../../organizations/domain/member';
import { TeamsService } from '../../teams/application/teams.service';
import { SiteRoleOrigin, effectiveSiteRole } from '../domain/site-grant';
import { SiteGrantsRepository } from '../infrastructure/site-grants.repository';
import { SiteAccess } from './site-access';

export interface SiteUserView {
  siteId: string;
  member: Member;
  user: User;
  viewer: UserViewer;
  permission: MemberRole;
  origin: SiteRoleOrigin;
}

/**
 * Who can work on a site (GitBook's `listPermissionsAggregateInSite`): every member with an
 * organization role and everyone the site is shared with (guests too, directly or through a
 * team), each with their role on the site and where it comes from.
 */
@Injectable()
export class SiteAudienceService {
  constructor(
    private readonly siteAccess: SiteAccess,
    private readonly members: MembersService,
    private readonly grants: SiteGrantsRepository,
    private readonly teams: TeamsService,
  ) {}

  async list(caller: User, organizationId: string, siteId: string, request: PageRequest): Promise<Page<SiteUserView>> {
    const { site } = await this.siteAccess.read(caller, organizationId, siteId);
    const grants = await this.grants.allOn(site.id);
    const own = new Map<string, MemberRole>();
    const viaTeams = new Map<string, Array<{ teamId: string; role: MemberRole }>>();
    const teamGrants = grants.filter((grant) => grant.principal === 'team');
    const teamMembers = await this.teams.memberIdsOf(teamGrants.map((grant) => grant.principalId));
    for (const grant of grants) if (grant.principal === 'user') own.set(grant.principalId, grant.role);
    // Oldest grant first, so a tie between teams names the team the site was shared with first.
    for (const grant of teamGrants) {
      for (const userId of teamMembers.get(grant.principalId) ?? []) viaTeams.set(userId, [...(viaTeams.get(userId) ?? []), { teamId: grant.principalId, role: grant.role }]);
    }
    const page = await this.members.listWithRole(caller, organizationId, request, [...new Set([...own.keys(), ...viaTeams.keys()])]);
    return {
      ...page,
      items: page.items.flatMap(({ member, user, viewer }) => {
        const effective = effectiveSiteRole(member.role, own.get(member.userId), viaTeams.get(member.userId) ?? []);
        return effective ? [{ siteId: site.id, member, user, viewer, permission: effective.role, origin: effective.origin }] : [];
      }),
    };
  }
}
