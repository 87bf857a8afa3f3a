import { Test, TestingModule } from '@nestjs/testing';
import { APP_CONFIG, CLOCK } from '@app/common';
import { JobBackend } from '../../../src/jobs/bullmq/job-backend';
import { JobOperations } from '../../../src/jobs/bullmq/job-operations';
import { JobDefinition } from '../../../src/jobs/job-definition';
import { JobPort } from '../../../src/jobs/job-port';
import { WorkerModule } from '../../../src/worker.module';
import { TestApp } from './test-app';
import type { QueueEvents } from 'bullmq';

/**
 * The worker process next to a TestApp: the real WorkerModule (job handlers included) with the
 * app's configuration and clock, so it shares its database, job backend, queue prefix and time.
 */
export class TestWorker {
  private readonly events = new Map<string, QueueEvents>();

  private constructor(private readonly moduleRef: TestingModule) {}

  static async start(t: TestApp): Promise<TestWorker> {
    const moduleRef = await Test.createTestingModule({ imports: [WorkerModule] })
      .overrideProvider(APP_CONFIG)
      .useValue(t.config)
      .overrideProvider(CLOCK)
      .useValue(t.clock)
      .compile();
    moduleRef.useLogger(false);
    await moduleRef.init();
    return new TestWorker(moduleRef);
  }

  /** One of the worker's own providers, for a test that drives a step (a sweep, a try) itself. */
  get<T>(type: new (...args: never[]) => T): T {
    return this.moduleRef.get(type, { strict: false });
  }

  get operations(): JobOperations {
    return this.moduleRef.get(JobOperations);
  }

  /** Enqueues a job through the job port and waits until the worker has finished it; returns its result. */
  async run<T = unknown, P extends object = object>(job: JobDefinition<P>, payload: P, timeoutMs = 15000): Promise<T> {
    const events = await this.queueEvents(job.queue);
    const { id } = await this.moduleRef.get(JobPort).enqueue(job, payload);
    const backend = this.moduleRef.get(JobBackend);
    const added = await backend.queue(job.queue).getJob(id);
    return (await added!.waitUntilFinished(events, timeoutMs)) as T;
  }

  /** A job as the backend holds it (its attempts, state, failure), or undefined. */
  async job(queue: string, id: string): Promise<import('bullmq').Job | undefined> {
    return (await this.moduleRef.get(JobBackend).queue(queue).getJob(id)) ?? undefined;
  }

  /**
   * A job once the backend has finished with it. A handler records its own outcome (an operation's failure, say) before
   * the backend moves the job to completed or failed and counts the attempt, so a test that saw the outcome waits here.
   */
  async settledJob(queue: string, id: string, timeoutMs = 15000): Promise<import('bullmq').Job | undefined> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const job = await this.job(queue, id);
      const state = job ? await job.getState() : 'unknown';
      // Read again once settled: the copy read before the state may predate the attempt being counted.
      if (state === 'completed' || state === 'failed') return this.job(queue, id);
      if (Date.now() > deadline) return job;
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** How many of a queue's jobs wait, run and are delayed (the backend's own counts). */
  async jobCounts(queue: string): Promise<{ wait: number; active: number; delayed: number }> {
    const counts = await this.moduleRef.get(JobBackend).queue(queue).getJobCounts('wait', 'active', 'delayed');
    return { wait: counts.wait ?? 0, active: counts.active ?? 0, delayed: counts.delayed ?? 0 };
  }

  /** Stops the handlers; the TestApp removes the job data with its database and queue prefix. */
  async close(): Promise<void> {
    for (const events of this.events.values()) await events.close();
    await this.moduleRef.close();
  }

  private async queueEvents(queue: string): Promise<QueueEvents> {
    let events = this.events.get(queue);
    if (!events) {
      events = this.moduleRef.get(JobBackend).queueEvents(queue);
      await events.waitUntilReady();
      this.events.set(queue, events);
    }
    return events;
  }
}
