import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig, CLOCK, Clock, InvalidError, NotFoundError, newId } from '@app/common';
import { assertRole } from '../../access/application/access.service';
import { User } from '../../identity/domain/user';
import { SpacesService } from '../../spaces/application/spaces.service';
import { JobOutbox } from '../../../jobs/outbox/job-outbox';
import { Transactions } from '../../../database/transactions';
import { displayUrl, parseRemoteUrl } from '../domain/remote-url';
import { GitSyncRepository } from '../infrastructure/git-sync.repository';
import { GitSyncOperationOrm } from '../infrastructure/git-sync.orm';
import { SecretBox } from '../../../core/secrets/secret-box';
import { GitExportJob, GitImportJob } from './git-sync.jobs';
import { gitSyncSummary } from './git-sync-summary';
import { gitSyncInstallation } from '../../spaces/domain/space';
import { GitSyncRunner } from './git-sync-runner.service';

export interface GitSyncRequest {
  url: string;
  ref: string;
  commitMessage?: string;
  repoCacheID?: string;
  repoTreeURL?: string;
  repoCommitURL?: string;
  repoProjectDirectory?: string;
  timestamp?: string;
  force?: boolean;
  standalone?: boolean;
  gitInfo?: { provider?: string; url?: string };
}

export interface GitInfoView {
  installationId: string;
  installationStatus: 'active';
  repoName?: string;
  installationProvider?: string;
  url?: string;
  updatedAt?: string;
  /** Not in GitBook's 0.146 state: the last operation and a change request holding unmerged changes. */
  operation?: { state: string; direction: string; startedAt: string; endedAt?: string; error?: string; changeRequest?: string };
}

/**
 * Git Sync over HTTP: validates and records an operation (credentials sealed), then enqueues
 * the job with ids only. Importing and exporting need `admin` on the space's content (`edit`
 * would let any editor point the space at any repository); reading the info needs `read`.
 */
@Injectable()
export class GitSyncService {
  constructor(
    private readonly spaces: SpacesService,
    private readonly repository: GitSyncRepository,
    private readonly secrets: SecretBox,
    private readonly outbox: JobOutbox,
    private readonly transactions: Transactions,
    private readonly runner: GitSyncRunner,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async request(caller: User, spaceId: string, direction: 'import' | 'export', input: GitSyncRequest): Promise<void> {
    const operation = await this.operation(caller, spaceId, direction, input);
    const staged = await this.transactions.run(async (tx) => {
      await this.repository.insertOperation(operation, tx);
      return this.outbox.stage(tx, direction === 'import' ? GitImportJob : GitExportJob, [{ payload: { spaceId, operationId: operation.id }, options: { jobId: `git-${operation.id}` } }]);
    });
    await this.outbox.release(staged);
  }

  /**
   * An import run in this process rather than by the worker (the CLI's docs:publish, reading a
   * repository on this machine): the same checks and the same recorded operation, with no job.
   */
  async importHere(caller: User, spaceId: string, input: GitSyncRequest): Promise<Record<string, unknown>> {
    const operation = await this.operation(caller, spaceId, 'import', input);
    await this.repository.insertOperation(operation);
    return this.runner.run(operation.id);
  }

  private async operation(caller: User, spaceId: string, direction: 'import' | 'export', input: GitSyncRequest): Promise<GitSyncOperationOrm> {
    const space = await this.spaces.get(caller, spaceId);
    assertRole(space.role, 'admin', 'space');
    if (!/^refs\/(heads|pull|tags)\/\S+$/.test(input.ref)) throw new InvalidError('Invalid ref: expected a full ref such as "refs/heads/main"');
    if (direction === 'export' && !/^refs\/heads\//.test(input.ref)) throw new InvalidError('Invalid ref: an export pushes to a branch, "refs/heads/<branch>"');
    const remote = parseRemoteUrl(input.url, this.config.gitAllowedProtocols);
    const sealed = remote.secrets ? this.secrets.seal(JSON.stringify(remote.secrets)) : null;
    return Object.assign(new GitSyncOperationOrm(), {
      id: newId(),
      spaceId,
      direction,
      url: remote.url,
      sealedCredentials: sealed,
      options: {
        ref: input.ref,
        commitMessage: input.commitMessage,
        repoCacheID: input.repoCacheID,
        // Shown to readers: whatever could be a credential in them goes (they are links, not remotes).
        repoTreeURL: displayUrl(input.repoTreeURL) ?? undefined,
        repoCommitURL: displayUrl(input.repoCommitURL) ?? undefined,
        repoProjectDirectory: input.repoProjectDirectory,
        force: input.force === true,
        standalone: input.standalone === true,
        gitInfo: input.gitInfo ? { provider: input.gitInfo.provider, url: displayUrl(input.gitInfo.url) ?? undefined } : undefined,
      },
      timestamp: input.timestamp ? new Date(input.timestamp) : null,
      requestedBy: caller.id,
      state: 'queued',
      error: null,
      result: null,
      createdAt: this.clock.now(),
      completedAt: null,
    });
  }

  async info(caller: User, spaceId: string): Promise<GitInfoView> {
    await this.spaces.get(caller, spaceId);
    const state = await this.repository.findState(spaceId);
    if (!state) throw new NotFoundError(`Space "${spaceId}" has no Git Sync set up`);
    const last = await this.repository.latestOperation(spaceId);
    return {
      ...gitSyncInstallation(spaceId, gitSyncSummary(state)),
      operation: last
        ? {
            state: operationState(last.state),
            direction: last.direction,
            startedAt: last.createdAt.toISOString(),
            ...(last.completedAt ? { endedAt: last.completedAt.toISOString() } : {}),
            error: last.error ?? undefined,
            changeRequest: state.changeRequest ?? undefined,
          }
        : undefined,
    };
  }

  /** Removes the space's link to its repository; false when there was none. */
  async removeInstallation(caller: User, spaceId: string): Promise<boolean> {
    const space = await this.spaces.get(caller, spaceId);
    assertRole(space.role, 'admin', 'space');
    return this.transactions.run(async (tx) => {
      const removed = await this.repository.deleteState(spaceId, tx);
      await this.spaces.recordGitSync(spaceId, null, tx);
      return removed;
    });
  }
}

/** GitBook's `GitSyncOperationState` has no queued or skipped: a queued operation is under way, a skipped one had nothing to do. */
function operationState(state: string): 'running' | 'success' | 'failure' {
  if (state === 'queued' || state === 'running') return 'running';
  return state === 'failure' ? 'failure' : 'success';
}
