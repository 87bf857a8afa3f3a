import { defineJob } from '../../../jobs/job-definition';

/** Analyse the organization's conversations that wait for it (ids only). */
export interface AnalyseConversationsPayload {
  organizationId: string;
}

export const AnalyseConversations = defineJob<AnalyseConversationsPayload>({
  name: 'analyse-conversations',
  queue: 'conversations',
  attempts: 5,
  backoff: { type: 'exponential', delayMs: 5000 },
  timeoutMs: 30 * 60 * 1000,
  // One at a time: clusters are read and written by one analysis at once.
  concurrency: 1,
});
