import { defineJob } from '../../../jobs/job-definition';

/** Process one request for a spec: the spec id and the generation it was made at (ids only). */
export interface ProcessSpecPayload {
  specId: string;
  generation: number;
  /** Whose turn it is (jobs queued before this field existed have none and take any free slot). */
  organizationId?: string;
}

export const ProcessOpenAPISpec = defineJob<ProcessSpecPayload>({
  name: 'process-openapi-spec',
  queue: 'openapi',
  attempts: 3,
  backoff: { type: 'exponential', delayMs: 5000 },
  timeoutMs: 5 * 60 * 1000,
  concurrency: 2,
  // One organization's slow specs never hold both slots: another organization's spec waits for none of them.
  fairTurns: { groupOf: (payload) => payload.organizationId },
});

/** Re-process every URL-sourced spec (OPENAPI_REFRESH_EVERY_MS). */
export const RefreshOpenAPISpecs = defineJob<Record<string, never>>({
  name: 'refresh-openapi-specs',
  queue: 'openapi',
  attempts: 3,
  backoff: { type: 'exponential', delayMs: 60_000 },
  timeoutMs: 10 * 60 * 1000,
  concurrency: 2,
});
