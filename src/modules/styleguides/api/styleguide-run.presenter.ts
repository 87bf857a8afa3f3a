import { Injectable } from '@nestjs/common';
import { UserPresenter } from '../../identity/api/user.presenter';
import { StyleguideRunView } from '../application/styleguide-runs.service';

/** GitBook's `SiteStyleguideRun`. */
@Injectable()
export class StyleguideRunPresenter {
  constructor(private readonly users: UserPresenter) {}

  present({ run, createdBy, viewer }: StyleguideRunView) {
    return {
      object: 'styleguide-run' as const,
      id: run.id,
      site: run.siteId,
      styleguide: run.styleguideSpaceId,
      spaces: run.spaces,
      createdAt: run.createdAt.toISOString(),
      createdBy: this.users.presentOrDeleted(createdBy, run.createdBy, viewer),
    };
  }
}
