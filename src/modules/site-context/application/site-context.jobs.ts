import { defineJob } from '../../../jobs/job-definition';

export interface ScanSitePayload {
  scanId: string;
}

export interface SyncContextConnectionPayload {
  connectionId: string;
}

/**
 * Scans a site's evidence (readers' weak questions, searches without results, pages rated
 * unhelpful, support conversations, agents' reports, records) into topics and findings. A scan
 * run again updates the same topics and findings (by their keys): nothing doubles.
 */
export const ScanSite = defineJob<ScanSitePayload>({
  name: 'scan-site',
  queue: 'site-context',
  attempts: 3,
  backoff: { type: 'exponential', delayMs: 5000 },
  timeoutMs: 15 * 60 * 1000,
  concurrency: 1,
});

/** Pulls a connection's records from its source (through the guarded fetcher); records are kept by their ids, so a retry repeats nothing. */
export const SyncContextConnection = defineJob<SyncContextConnectionPayload>({
  name: 'sync-context-connection',
  queue: 'site-context',
  attempts: 3,
  backoff: { type: 'exponential', delayMs: 5000 },
  timeoutMs: 10 * 60 * 1000,
  concurrency: 1,
});

export interface DraftFindingFixPayload {
  organizationId: string;
  siteId: string;
  findingId: string;
  /** Who asked: the change request is theirs, and their rights are checked when it runs. */
  userId: string;
  /** Identifies this draft: one recorded already is not made again. */
  draftId: string;
}

/** Drafts a change request addressing a finding (with the model when there is one: it may take a while). */
export const DraftFindingFix = defineJob<DraftFindingFixPayload>({
  name: 'draft-finding-fix',
  queue: 'site-context',
  attempts: 3,
  backoff: { type: 'exponential', delayMs: 5000 },
  timeoutMs: 5 * 60 * 1000,
  concurrency: 1,
});

/** Starts a scan for each site that scans automatically and got new evidence since the previous pass (every SITE_SCANS_EVERY_MS). */
export const ScanDueSites = defineJob<Record<string, never>>({
  name: 'scan-due-sites',
  queue: 'site-context',
  attempts: 3,
  backoff: { type: 'exponential', delayMs: 5000 },
  timeoutMs: 10 * 60 * 1000,
  concurrency: 1,
});
