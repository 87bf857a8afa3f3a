import type { Job } from 'bullmq';
import { JobBackend } from './job-backend';

export type ListableState = 'waiting' | 'active' | 'delayed' | 'completed' | 'failed' | 'prioritized';
export const LISTABLE_STATES: readonly ListableState[] = ['waiting', 'active', 'delayed', 'completed', 'failed', 'prioritized'];

export interface JobSummary {
  id: string;
  queue: string;
  name: string;
  state: string;
  attemptsMade: number;
  failedReason?: string;
  createdAt: string;
  finishedAt?: string;
}

/** What an operator does with jobs (CLI, dashboard): list, retry, remove, on either backend. */
export class JobOperations {
  constructor(
    private readonly backend: JobBackend,
    private readonly queues: readonly string[],
  ) {}

  async list(state: ListableState, limit = 50): Promise<JobSummary[]> {
    const found: JobSummary[] = [];
    for (const queue of this.queues) {
      const jobs = await this.backend.queue(queue).getJobs([state], 0, limit - 1);
      for (const job of jobs.filter(Boolean)) found.push(summary(queue, job, state));
    }
    return found.sort((a, b) => b.createdAt.localeCompare(a.createdAt)).slice(0, limit);
  }

  /** Puts a failed job back in its queue for a new run. */
  async retry(id: string, queue?: string): Promise<JobSummary> {
    const { job, queue: name } = await this.find(id, queue);
    const state = await job.getState();
    if (state !== 'failed') throw new Error(`Job ${id} is ${state}; only failed jobs can be retried`);
    await job.retry('failed');
    return summary(name, job, 'waiting');
  }

  async remove(id: string, queue?: string): Promise<JobSummary> {
    const { job, queue: name } = await this.find(id, queue);
    const state = await job.getState();
    if (state === 'active') throw new Error(`Job ${id} is running; remove it once it has finished`);
    await job.remove();
    return summary(name, job, 'removed');
  }

  async schedules(queue: string): Promise<{ key: string; name: string; everyMs?: number }[]> {
    const schedulers = await this.backend.queue(queue).getJobSchedulers();
    return schedulers.map((s) => ({ key: s.key, name: s.name, everyMs: s.every ? Number(s.every) : undefined }));
  }

  private async find(id: string, queue?: string): Promise<{ job: Job; queue: string }> {
    const matches: { job: Job; queue: string }[] = [];
    for (const name of queue ? [queue] : this.queues) {
      const job = await this.backend.queue(name).getJob(id);
      if (job) matches.push({ job, queue: name });
    }
    if (matches.length === 0) throw new Error(`No job ${id}${queue ? ` on queue ${queue}` : ''}`);
    if (matches.length > 1) throw new Error(`Job id ${id} exists on several queues (${matches.map((m) => m.queue).join(', ')}); pass --queue`);
    return matches[0];
  }
}

function summary(queue: string, job: Job, state: string): JobSummary {
  return {
    id: String(job.id),
    queue,
    name: job.name,
    state,
    attemptsMade: job.attemptsMade,
    failedReason: job.failedReason || undefined,
    createdAt: new Date(job.timestamp).toISOString(),
    finishedAt: job.finishedOn ? new Date(job.finishedOn).toISOString() : undefined,
  };
}
