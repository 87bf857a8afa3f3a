import { defineJob } from '../../../jobs/job-definition';

/**
 * Turns committed domain events into webhook deliveries and re-queues deliveries nobody is
 * working on. Repeats every EVENTS_SWEEP_MS; commits also wake the worker's dispatcher at once.
 * Carries nothing; running it twice makes no delivery twice (one per webhook and event).
 */
export const DispatchEvents = defineJob<Record<string, never>>({
  name: 'dispatch-events',
  queue: 'events',
  attempts: 3,
  backoff: { type: 'fixed', delayMs: 1000 },
  timeoutMs: 5 * 60 * 1000,
  concurrency: 1,
});

export interface DeliverWebhookPayload {
  deliveryId: string;
  /** Which try this is (1 first): a delivery's attempts are taken one by one, so two runs never send the same attempt. */
  attempt: number;
}

/**
 * One try of one delivery. Failures are not BullMQ retries: the handler records the attempt and
 * schedules the next one itself (exponential backoff for WEBHOOK_DISABLE_AFTER_HOURS), so the
 * delivery log shows each try. The BullMQ attempts only cover the handler's own crashes.
 */
export const DeliverWebhook = defineJob<DeliverWebhookPayload>({
  name: 'deliver-webhook',
  queue: 'webhooks',
  attempts: 3,
  backoff: { type: 'exponential', delayMs: 1000 },
  timeoutMs: 90 * 1000,
  concurrency: 16,
});

/** Removes audit entries older than AUDIT_RETENTION_DAYS and dispatched outbox rows older than a week. */
export const PruneAuditLog = defineJob<Record<string, never>>({
  name: 'prune-audit-log',
  // Beside dispatch (both one at a time): deliveries do not wait on it, commits wake the dispatcher directly.
  queue: 'events',
  attempts: 3,
  backoff: { type: 'exponential', delayMs: 2000 },
  timeoutMs: 10 * 60 * 1000,
  concurrency: 1,
});

/** One job id per try of a delivery: enqueueing the same try twice adds it once. */
export function deliveryJobId(deliveryId: string, attempt: number): string {
  return `${deliveryId}-${attempt}`;
}
