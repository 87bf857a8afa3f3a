import { defineJob } from '../../../jobs/job-definition';

/** Looks up a site's host name claim in DNS and serves the name once the TXT record proves it. Carries the site id only. */
export const VerifyCustomHostname = defineJob<{ siteId: string }>({
  name: 'verify-custom-hostname',
  queue: 'sites',
  attempts: 3,
  backoff: { type: 'exponential', delayMs: 10_000 },
  timeoutMs: 60_000,
  concurrency: 4,
});
