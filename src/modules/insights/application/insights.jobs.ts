import { defineJob } from '../../../jobs/job-definition';

/**
 * Folds readers' events into the daily counts (every INSIGHTS_ROLLUP_EVERY_MS), prunes events and
 * counts past their retention, and drops the salts of past days. Carries nothing; a repeated run
 * rebuilds the same counts.
 */
export const RollupSiteInsights = defineJob<Record<string, never>>({
  name: 'rollup-site-insights',
  queue: 'insights',
  attempts: 3,
  backoff: { type: 'exponential', delayMs: 5000 },
  timeoutMs: 10 * 60 * 1000,
  concurrency: 1,
});
