import { Injectable } from '@nestjs/common';
import { UserPresenter } from '../../identity/api/user.presenter';
import { SiteUserView } from '../application/site-audience.service';

/** GitBook's `UserSitePermission`: a member's organization role, which is what sites follow here. */
@Injectable()
export class SiteUserPresenter {
  constructor(private readonly users: UserPresenter) {}

  present({ member, user, viewer }: SiteUserView) {
    return {
      permission: member.role,
      user: this.users.present(user, viewer),
      origin: { type: 'organization' as const, organization: member.organizationId },
      disabled: member.disabled,
      ...(member.lastSeenAt ? { lastSeenAt: member.lastSeenAt.toISOString() } : {}),
    };
  }
}
