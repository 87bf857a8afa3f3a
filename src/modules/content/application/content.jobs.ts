import { defineJob } from '../../../jobs/job-definition';

/** Sweeps FILES_DIR of partial writes and files no revision names (FileCollector.sweep). Carries nothing; idempotent. */
export const SweepFiles = defineJob<Record<string, never>>({
  name: 'sweep-files',
  queue: 'files',
  attempts: 3,
  backoff: { type: 'exponential', delayMs: 2000 },
  timeoutMs: 10 * 60 * 1000,
  concurrency: 1,
});
