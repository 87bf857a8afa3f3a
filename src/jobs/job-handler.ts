import { Injectable, SetMetadata, applyDecorators } from '@nestjs/common';
import { JobDefinition } from './job-definition';

export interface JobContext {
  jobId: string;
  /** 1 on the first try. */
  attempt: number;
  /** Aborted when the run exceeds the job's timeout; long handlers should stop then. */
  signal: AbortSignal;
}

/**
 * Runs one kind of job. Delivery is at least once (a worker killed mid-job leaves it to be run
 * again), so a handler must be idempotent: running it twice changes nothing more than once.
 */
export interface JobHandler<P extends object = object> {
  handle(payload: P, context: JobContext): Promise<unknown>;
}

/**
 * A failure that cannot succeed on another try (an over-limit repository, a missing ref): the job
 * fails at once instead of using up its retries.
 */
export class PermanentJobError extends Error {
  override readonly name = 'PermanentJobError';
}

export const JOB_HANDLER = Symbol('JOB_HANDLER');

/** Marks a provider as the handler of `job`; the worker discovers it at start. */
export function HandlesJob(job: JobDefinition<any>): ClassDecorator {
  return applyDecorators(Injectable(), SetMetadata(JOB_HANDLER, job.name));
}
