import { defineJob } from '../../../jobs/job-definition';

/** One Git Sync operation: ids only; the url's credentials stay sealed in the operation row. */
export interface GitSyncPayload {
  spaceId: string;
  operationId: string;
}

const common = { queue: 'git-sync', attempts: 3, backoff: { type: 'exponential' as const, delayMs: 5000 }, timeoutMs: 15 * 60 * 1000, concurrency: 2 };

export const GitImportJob = defineJob<GitSyncPayload>({ name: 'git-import', ...common });
export const GitExportJob = defineJob<GitSyncPayload>({ name: 'git-export', ...common });
