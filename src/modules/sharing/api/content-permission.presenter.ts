import { Injectable } from '@nestjs/common';
import { UserPresenter } from '../../identity/api/user.presenter';
import { TeamPresenter } from '../../teams/api/team.presenter';
import { TeamPermissionView, UserPermissionView } from '../application/sharing.service';

/** GitBook's `UserContentPermission` and the team permission items of GET .../permissions/teams. */
@Injectable()
export class ContentPermissionPresenter {
  constructor(
    private readonly users: UserPresenter,
    private readonly teams: TeamPresenter,
  ) {}

  presentUser(view: UserPermissionView) {
    return { permission: view.permission, user: this.users.present(view.user, view.viewer) };
  }

  presentTeam(view: TeamPermissionView) {
    return { permission: view.permission, team: this.teams.present(view.team) };
  }
}
