import { HandlesJob, JobContext, JobHandler } from '../../../jobs/job-handler';
import { GitExportJob, GitImportJob, GitSyncPayload } from '../application/git-sync.jobs';
import { GitSyncRunner } from '../application/git-sync-runner.service';

/** Runs a queued import (idempotent: a finished operation is not run again). */
@HandlesJob(GitImportJob)
export class GitImportHandler implements JobHandler<GitSyncPayload> {
  constructor(private readonly runner: GitSyncRunner) {}

  handle(payload: GitSyncPayload, context: JobContext): Promise<unknown> {
    return this.runner.run(payload.operationId, context.signal);
  }
}

/** Runs a queued export (idempotent: a finished operation is not run again). */
@HandlesJob(GitExportJob)
export class GitExportHandler implements JobHandler<GitSyncPayload> {
  constructor(private readonly runner: GitSyncRunner) {}

  handle(payload: GitSyncPayload, context: JobContext): Promise<unknown> {
    return this.runner.run(payload.operationId, context.signal);
  }
}
