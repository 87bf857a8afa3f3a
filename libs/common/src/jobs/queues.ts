import type { JobsOptions } from 'bullmq';

/** Every queue the worker consumes, with its defaults, declared once. */
export const QUEUES = {
  maintenance: 'maintenance',
} as const;

export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

export const JOBS = {
  purgeDeletedSpaces: 'purge-deleted-spaces',
} as const;

export const DEFAULT_JOB_OPTIONS: JobsOptions = {
  attempts: 3,
  backoff: { type: 'exponential', delay: 2000 },
  removeOnComplete: { count: 1000 },
  removeOnFail: { count: 5000 },
};
