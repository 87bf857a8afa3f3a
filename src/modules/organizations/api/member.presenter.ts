import { Injectable } from '@nestjs/common';
import { UserPresenter } from '../../identity/api/user.presenter';
import { MemberView } from '../application/members.service';

/** GitBook's `OrganizationMember`; its `id` is the user's id. */
@Injectable()
export class MemberPresenter {
  constructor(private readonly users: UserPresenter) {}

  present({ member, user, spaces, teams, sites, viewer }: MemberView) {
    return {
      object: 'member' as const,
      id: member.userId,
      role: member.role,
      user: this.users.present(user, viewer),
      disabled: member.disabled,
      joinedAt: member.joinedAt.toISOString(),
      ...(member.lastSeenAt ? { lastSeenAt: member.lastSeenAt.toISOString() } : {}),
      sso: member.sso,
      spaces,
      teams,
      sites,
    };
  }
}
