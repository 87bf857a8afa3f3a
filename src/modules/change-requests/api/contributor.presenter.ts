import { Injectable } from '@nestjs/common';
import { UserPresenter } from '../../identity/api/user.presenter';
import { ContributorView } from '../application/change-request-reads.service';

/** GitBook's `ChangeRequestUserContributor`: contributors here are editors, so `actionType` is `edit`. */
@Injectable()
export class ContributorPresenter {
  constructor(private readonly users: UserPresenter) {}

  present(view: ContributorView) {
    return { user: this.users.present(view.user, view.viewer), count: view.count, updatedAt: view.updatedAt.toISOString(), actionType: 'edit' as const };
  }
}
