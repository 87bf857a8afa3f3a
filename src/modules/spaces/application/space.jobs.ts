import { defineJob } from '../../../jobs/job-definition';

/** Purges spaces deleted longer ago than SPACE_RETENTION_DAYS. Carries nothing; running it twice purges nothing more. */
export const PurgeDeletedSpaces = defineJob<Record<string, never>>({
  name: 'purge-deleted-spaces',
  queue: 'maintenance',
  attempts: 3,
  backoff: { type: 'exponential', delayMs: 2000 },
  timeoutMs: 10 * 60 * 1000,
  concurrency: 1,
});
