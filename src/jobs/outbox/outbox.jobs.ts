import { defineJob } from '../job-definition';

/** Queues staged jobs that were committed and never queued (JobOutbox.sweep). Carries nothing; idempotent. */
export const FlushJobOutbox = defineJob<Record<string, never>>({
  name: 'flush-job-outbox',
  // Its own queue: a long purge on `maintenance` must not hold back work waiting to be queued.
  queue: 'job-outbox',
  attempts: 3,
  backoff: { type: 'exponential', delayMs: 2000 },
  timeoutMs: 5 * 60 * 1000,
  concurrency: 1,
});
