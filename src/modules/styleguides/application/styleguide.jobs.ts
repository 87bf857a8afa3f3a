import { defineJob } from '../../../jobs/job-definition';

/** One space's check in a style guide run: the change request it runs in and the run (ids only). */
export interface CheckStyleguidePayload {
  changeRequestId: string;
  runId: string;
}

export const CheckStyleguide = defineJob<CheckStyleguidePayload>({
  name: 'check-styleguide',
  queue: 'styleguides',
  attempts: 5,
  backoff: { type: 'exponential', delayMs: 10_000 },
  timeoutMs: 60 * 60 * 1000,
  concurrency: 1,
});
