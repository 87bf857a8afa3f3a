import { Injectable } from '@nestjs/common';
import { UserPresenter } from '../../identity/api/user.presenter';
import { TeamMemberView } from '../application/teams.service';

/** GitBook's `OrganizationTeamMember`: the organization member, their team role and what the caller may do. */
@Injectable()
export class TeamMemberPresenter {
  constructor(private readonly users: UserPresenter) {}

  present(view: TeamMemberView) {
    const { member } = view;
    return {
      organization: {
        object: 'member' as const,
        id: member.userId,
        role: member.role,
        user: this.users.present(view.user),
        disabled: member.disabled,
        joinedAt: member.joinedAt.toISOString(),
        ...(member.lastSeenAt ? { lastSeenAt: member.lastSeenAt.toISOString() } : {}),
        sso: member.sso,
        spaces: view.spaces,
        teams: view.teams,
      },
      team: { role: view.role },
      permissions: { view: view.view },
    };
  }
}
