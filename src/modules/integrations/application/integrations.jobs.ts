import { defineJob } from '../../../jobs/job-definition';

export interface DeliverIntegrationEventPayload {
  eventId: string;
  attempt: number;
}

/**
 * Sends one event to the integration's service (signed, through the guarded fetcher). Each try is
 * claimed by its number, so a job run twice sends once; a failed try schedules the next with a
 * backoff, until the last.
 */
export const DeliverIntegrationEvent = defineJob<DeliverIntegrationEventPayload>({
  name: 'deliver-integration-event',
  queue: 'integrations',
  attempts: 1,
  backoff: { type: 'fixed', delayMs: 1000 },
  timeoutMs: 60 * 1000,
  concurrency: 4,
});

/** Queues again the events whose try was lost (a worker killed, a queue write that failed after commit). */
export const SweepIntegrationEvents = defineJob<Record<string, never>>({
  name: 'sweep-integration-events',
  queue: 'integrations',
  attempts: 1,
  backoff: { type: 'fixed', delayMs: 1000 },
  timeoutMs: 60 * 1000,
  // One queue runs with one concurrency; two sweeps at once take different events (SKIP LOCKED).
  concurrency: 4,
});

export const deliveryJobId = (eventId: string, attempt: number) => `integration-event-${eventId}-${attempt}`;
