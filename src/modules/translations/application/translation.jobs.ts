import { defineJob } from '../../../jobs/job-definition';

/** One run request of a translation: its id and the generation it was made at (ids only). */
export interface RunTranslationPayload {
  translationId: string;
  generation: number;
}

export const RunTranslation = defineJob<RunTranslationPayload>({
  name: 'run-translation',
  queue: 'translations',
  attempts: 5,
  backoff: { type: 'exponential', delayMs: 10_000 },
  timeoutMs: 60 * 60 * 1000,
  concurrency: 1,
});
