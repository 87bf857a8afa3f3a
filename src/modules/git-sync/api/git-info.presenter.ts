import { Injectable } from '@nestjs/common';
import { GitInfoView } from '../application/git-sync.service';

/** GitBook's `GitSyncState`. The last operation (with a failure's reason) is shown only to the space's admins by the info use case. */
@Injectable()
export class GitInfoPresenter {
  present(view: GitInfoView) {
    return {
      installationId: view.installationId,
      installationStatus: view.installationStatus,
      ...(view.repoName ? { repoName: view.repoName } : {}),
      ...(view.installationProvider ? { installationProvider: view.installationProvider } : {}),
      ...(view.url ? { url: view.url } : {}),
      ...(view.updatedAt ? { updatedAt: view.updatedAt } : {}),
      ...(view.operation ? { operation: view.operation } : {}),
    };
  }
}
