import type { JobsOptions } from 'bullmq';
import { JobDefinition } from '../job-definition';
import { EnqueueOptions, JobPort, JobState, JobStatus } from '../job-port';
import { assertNoSecrets } from '../secrets-guard';
import { JobBackend } from './job-backend';

/** Finished jobs kept for the dashboard and the CLI; older ones are dropped. */
const KEEP = { removeOnComplete: { count: 1000 }, removeOnFail: { count: 5000 } } as const;

export function jobOptions(job: JobDefinition, options: EnqueueOptions = {}): JobsOptions {
  return {
    attempts: job.attempts,
    backoff: { type: job.backoff.type, delay: job.backoff.delayMs },
    ...KEEP,
    ...(options.jobId ? { jobId: options.jobId } : {}),
    ...(options.delayMs ? { delay: options.delayMs } : {}),
  };
}

/** The job port on BullMQ, on whichever backend the configuration chose. */
export class BullJobPort extends JobPort {
  constructor(private readonly backend: JobBackend) {
    super();
  }

  async enqueue<P extends object>(job: JobDefinition<P>, payload: P, options?: EnqueueOptions): Promise<{ id: string }> {
    assertNoSecrets(job.name, payload);
    const added = await this.backend.queue(job.queue).add(job.name, payload, jobOptions(job, options));
    return { id: String(added.id) };
  }

  async enqueueMany<P extends object>(job: JobDefinition<P>, items: Array<{ payload: P; options?: EnqueueOptions }>): Promise<void> {
    if (items.length === 0) return;
    for (const { payload } of items) assertNoSecrets(job.name, payload);
    await this.backend.queue(job.queue).addBulk(items.map(({ payload, options }) => ({ name: job.name, data: payload, opts: jobOptions(job, options) })));
  }

  async schedule<P extends object>(job: JobDefinition<P>, schedule: { key: string; everyMs: number }, payload: P): Promise<void> {
    assertNoSecrets(job.name, payload);
    await this.backend
      .queue(job.queue)
      .upsertJobScheduler(schedule.key, { every: schedule.everyMs }, { name: job.name, data: payload, opts: jobOptions(job) });
  }

  async status(job: JobDefinition<any>, id: string): Promise<JobStatus | undefined> {
    const found = await this.backend.queue(job.queue).getJob(id);
    if (!found || found.name !== job.name) return undefined;
    return {
      id: String(found.id),
      name: found.name,
      state: (await found.getState()) as JobState,
      attemptsMade: found.attemptsMade,
      result: found.returnvalue ?? undefined,
      failedReason: found.failedReason || undefined,
    };
  }
}
