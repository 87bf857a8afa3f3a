import { Injectable } from '@nestjs/common';
import { UserPresenter } from '../../identity/api/user.presenter';
import { TeamPresenter } from '../../teams/api/team.presenter';
import { SiteTeamGrantView, SiteUserGrantView } from '../application/site-grants.service';
import { SiteUserView } from '../application/site-audience.service';

/** GitBook's `UserSitePermission` (who can work on a site) and its site permission overrides. */
@Injectable()
export class SiteUserPresenter {
  constructor(
    private readonly users: UserPresenter,
    private readonly teams: TeamPresenter,
  ) {}

  present({ siteId, member, user, viewer, permission, origin }: SiteUserView) {
    return {
      permission,
      user: this.users.present(user, viewer),
      origin:
        origin.kind === 'organization'
          ? { type: 'organization' as const, organization: member.organizationId }
          : { type: 'site' as const, site: siteId, reason: origin.reason, ...(origin.reason === 'team' ? { team: origin.teamId } : {}) },
      disabled: member.disabled,
      ...(member.lastSeenAt ? { lastSeenAt: member.lastSeenAt.toISOString() } : {}),
    };
  }

  /** `UserSitePermissionOverride`. */
  presentUserGrant({ permission, user, viewer }: SiteUserGrantView) {
    return { permission, user: this.users.present(user, viewer) };
  }

  /** `TeamSitePermissionOverride`. */
  presentTeamGrant({ permission, team }: SiteTeamGrantView) {
    return { permission, team: this.teams.present(team) };
  }
}
