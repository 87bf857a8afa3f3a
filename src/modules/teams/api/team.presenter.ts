import { Injectable } from '@nestjs/common';
import { teamPermissions } from '../../access/domain/permissions';
import { MemberTeamView, TeamView } from '../application/teams.service';

/** GitBook's `OrganizationTeam`, with permissions from the caller's organization and team roles. */
@Injectable()
export class TeamPresenter {
  present(view: TeamView) {
    return {
      object: 'team' as const,
      id: view.team.id,
      title: view.team.title,
      members: view.members,
      spaces: view.spaces,
      createdAt: view.team.createdAt.toISOString(),
      permissions: teamPermissions(view.orgRole, view.callerRole),
    };
  }

  /** An item of GET /orgs/{organizationId}/members/{userId}/teams. */
  presentForMember(view: MemberTeamView) {
    return { team: this.present(view.team), member: { role: view.role } };
  }
}
