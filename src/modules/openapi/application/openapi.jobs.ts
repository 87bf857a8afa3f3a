import { defineJob } from '../../../jobs/job-definition';

/** Process one request for a spec: the spec id and the generation it was made at (ids only). */
export interface ProcessSpecPayload {
  specId: string;
  generation: number;
}

export const ProcessOpenAPISpec = defineJob<ProcessSpecPayload>({
  name: 'process-openapi-spec',
  queue: 'openapi',
  attempts: 3,
  backoff: { type: 'exponential', delayMs: 5000 },
  timeoutMs: 5 * 60 * 1000,
  concurrency: 2,
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
