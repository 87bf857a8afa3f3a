import { Injectable } from '@nestjs/common';
import { MemberPresenter } from '../../organizations/api/member.presenter';
import { TeamMemberView } from '../application/teams.service';

/** GitBook's `OrganizationTeamMember`: the organization member, their team role and what the caller may do. */
@Injectable()
export class TeamMemberPresenter {
  constructor(private readonly members: MemberPresenter) {}

  present(view: TeamMemberView) {
    return {
      organization: this.members.present(view),
      team: { role: view.role },
      permissions: { view: view.view },
    };
  }
}
