import { defineJob } from '../../../jobs/job-definition';

/** One content import run (its id only: the source address is read from the run). */
export interface ImportContentPayload {
  runId: string;
}

export const ImportContent = defineJob<ImportContentPayload>({
  name: 'import-content',
  queue: 'imports',
  attempts: 3,
  backoff: { type: 'exponential', delayMs: 10_000 },
  timeoutMs: 30 * 60 * 1000,
  concurrency: 2,
});
