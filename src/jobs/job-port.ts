import { JobDefinition } from './job-definition';

export type JobState = 'waiting' | 'delayed' | 'active' | 'completed' | 'failed' | 'prioritized' | 'waiting-children' | 'unknown';

export interface JobStatus {
  id: string;
  name: string;
  state: JobState;
  attemptsMade: number;
  /** The handler's return value once completed. */
  result?: unknown;
  /** Why the last attempt failed. */
  failedReason?: string;
}

export interface EnqueueOptions {
  /**
   * Deduplication key: while a job with this id exists, enqueueing it again adds nothing. Use it
   * when one request may enqueue the same work twice (a retried HTTP call).
   */
  jobId?: string;
  delayMs?: number;
}

/**
 * What modules use to start background work. Payloads carry ids and references only, never
 * secrets (git credentials, provider keys): handlers resolve those when they run.
 */
export abstract class JobPort {
  abstract enqueue<P extends object>(job: JobDefinition<P>, payload: P, options?: EnqueueOptions): Promise<{ id: string }>;
  /** Many jobs of one kind in one round trip (a fan-out); the same deduplication by `jobId`. */
  abstract enqueueMany<P extends object>(job: JobDefinition<P>, items: Array<{ payload: P; options?: EnqueueOptions }>): Promise<void>;
  /**
   * Makes `job` repeat every `everyMs` under `key`. Idempotent: every process may call it at start,
   * and a changed interval replaces the previous one, so the schedule exists once.
   */
  abstract schedule<P extends object>(job: JobDefinition<P>, schedule: { key: string; everyMs: number }, payload: P): Promise<void>;
  abstract status(job: JobDefinition<any>, id: string): Promise<JobStatus | undefined>;
}
