import { SpaceGitSync } from '../../spaces/domain/space';
import { repositoryName } from '../domain/remote-url';
import { GitSyncStateOrm } from '../infrastructure/git-sync.orm';

/** GitBook's `GitSyncState` for a sync link: what `git/info` answers and the space's `gitSync` field shows. */
export function gitSyncSummary(state: Pick<GitSyncStateOrm, 'url' | 'provider' | 'treeUrl' | 'updatedAt'>): SpaceGitSync {
  return {
    repoName: repositoryName(state.url),
    ...(state.provider ? { installationProvider: state.provider } : {}),
    url: state.treeUrl ?? state.url,
    updatedAt: state.updatedAt.toISOString(),
  };
}
