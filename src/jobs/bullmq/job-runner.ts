import { ActorContexts } from '../../core/context/actor-context';
import { Logger } from '@nestjs/common';
import { DelayedError, UnrecoverableError } from 'bullmq';
import type { Job, Worker } from 'bullmq';
import { isDependencyOutage } from '@app/common';
import { FairTurns, turnsPerGroup } from '../fair-turns';
import { JobDefinition } from '../job-definition';
import { JobHandler, PermanentJobError } from '../job-handler';
import { JobBackend } from './job-backend';

export type JobOutcome = 'completed' | 'failed' | 'retrying';

/** Told about every finished run (metrics). */
export interface JobObserver {
  finished(job: { name: string; queue: string }, outcome: JobOutcome, durationMs: number): void;
}

export class JobTimeoutError extends Error {}

/** Defaults of JobsConfig's outagePatienceMs and outageRetryMs. */
const OUTAGE_PATIENCE_MS = 60 * 60 * 1000;
const OUTAGE_RETRY_MS = 5000;

/**
 * Consumes the queues of the given jobs: one BullMQ worker per queue, dispatching each job to its
 * handler by name, bounded by the job's timeout, and logging start, end, duration and outcome with
 * the job's id (never its payload, which is the handler's business).
 */
export class JobRunner {
  private readonly logger = new Logger('Jobs');
  private readonly workers: Worker[] = [];
  private readonly turns = new FairTurns();
  /** Jobs parked by fair turns, to be called back when their group's turn frees. */
  private readonly parkedJobs = new Map<string, Job>();

  constructor(
    private readonly backend: JobBackend,
    private readonly definitions: readonly JobDefinition[],
    private readonly handlers: ReadonlyMap<string, JobHandler<any>>,
    private readonly observer?: JobObserver,
  ) {}

  async start(): Promise<void> {
    const byQueue = new Map<string, JobDefinition[]>();
    for (const definition of this.definitions) byQueue.set(definition.queue, [...(byQueue.get(definition.queue) ?? []), definition]);
    for (const [queue, definitions] of byQueue) {
      const worker = this.backend.worker(queue, (job, token) => this.run(queue, definitions, job, token), { concurrency: definitions[0].concurrency });
      worker.on('error', (error) => this.logger.error(`Queue ${queue}: ${error.message}`));
      this.workers.push(worker);
    }
    await Promise.all(this.workers.map((w) => w.waitUntilReady()));
  }

  /** Stops taking jobs; lets the ones in flight finish. */
  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.close()));
    this.workers.length = 0;
  }

  private async run(queue: string, definitions: JobDefinition[], job: Job, token?: string): Promise<unknown> {
    const definition = definitions.find((d) => d.name === job.name);
    const handler = definition && this.handlers.get(definition.name);
    const attempt = job.attemptsMade + 1;
    const label = `job ${job.name} ${job.id} (queue ${queue}, attempt ${attempt})`;
    if (!definition || !handler) {
      // Fail loudly rather than drop a job this worker does not know how to run.
      this.logger.error(`${label}: no handler in this worker`);
      throw new Error(`No handler for job "${job.name}" on queue "${queue}"`);
    }
    const group = definition.fairTurns?.groupOf(job.data);
    if (group !== undefined) {
      if (!this.turns.take(queue, group, turnsPerGroup(definition.concurrency, definition.fairTurns?.perGroup))) {
        // Its group holds its share of this worker's slots: parked in the queue, leaving the slot to others, until a turn frees.
        const waitMs = this.turns.park(queue, group, String(job.id));
        if (this.parkedJobs.size >= 10_000) this.parkedJobs.clear(); // removed while parked: they come back on their delay
        this.parkedJobs.set(String(job.id), job);
        this.logger.debug({ jobId: job.id, job: job.name }, `${label} parked (at most ${waitMs} ms): its organization's turns are taken`);
        await job.moveToDelayed(Date.now() + waitMs, token);
        throw new DelayedError();
      }
      this.turns.started(queue, group, String(job.id));
      this.parkedJobs.delete(String(job.id));
    }
    try {
      return await this.runHandler(label, definition, handler, job, attempt, token);
    } finally {
      if (group !== undefined) this.callBack(this.turns.release(queue, group));
    }
  }

  /** Brings a parked job back to the queue now that its group has a free turn (it may have come back already). */
  private callBack(id: string | undefined): void {
    const job = id === undefined ? undefined : this.parkedJobs.get(id);
    if (!job) return;
    this.parkedJobs.delete(id!);
    job.promote().catch((error: Error) => this.logger.debug({ jobId: id }, `parked job ${id} not called back: ${error.message}`));
  }

  /**
   * A run that failed because PostgreSQL (or another dependency) was away spends no attempt: the job
   * goes back to the queue for a few seconds and runs again once the dependency is back, for as
   * long as it is younger than JOBS_OUTAGE_PATIENCE_MS. Its attempts are left for its own failures,
   * so an outage of minutes no longer fails acknowledged work. False when the job cannot be put
   * back (Redis away too): it then takes the usual path, an attempt and a backoff.
   */
  private async waitOutOutage(label: string, job: Job, definition: JobDefinition, started: number, error: unknown, token?: string): Promise<boolean> {
    const { outagePatienceMs = OUTAGE_PATIENCE_MS, outageRetryMs = OUTAGE_RETRY_MS } = this.backend.config;
    if (!token || !isDependencyOutage(error) || Date.now() - job.timestamp > outagePatienceMs) return false;
    try {
      await job.moveToDelayed(Date.now() + outageRetryMs, token);
    } catch {
      return false;
    }
    this.finish(label, job, definition, 'retrying', started, `a dependency is unavailable (${(error as Error).message}); again in ${outageRetryMs} ms, no attempt spent`);
    return true;
  }

  private async runHandler(label: string, definition: JobDefinition, handler: JobHandler<any>, job: Job, attempt: number, token?: string): Promise<unknown> {
    const abort = new AbortController();
    const started = performance.now();
    // Scheduled sweeps run every few seconds: their start, and an end that found nothing to do, are debug lines.
    const scheduled = Boolean(job.repeatJobKey);
    if (scheduled) this.logger.debug({ jobId: job.id, job: job.name, attempt }, `${label} started`);
    else this.logger.log({ jobId: job.id, job: job.name, attempt }, `${label} started`);
    let timer: NodeJS.Timeout | undefined;
    try {
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          abort.abort();
          reject(new JobTimeoutError(`timed out after ${definition.timeoutMs} ms`));
        }, definition.timeoutMs);
      });
      // The audit log and the outbox name the job as the actor of what it changes.
      const run = ActorContexts.run(ActorContexts.forJob(job.name), () => handler.handle(job.data, { jobId: String(job.id), attempt, signal: abort.signal }));
      const result = await Promise.race([run, timeout]);
      this.finish(label, job, definition, 'completed', started, undefined, scheduled && foundNothing(result));
      return result ?? null;
    } catch (error) {
      if (await this.waitOutOutage(label, job, definition, started, error, token)) throw new DelayedError();
      // The job's own options decide whether BullMQ tries again (an operator may have added it with others).
      const permanent = error instanceof PermanentJobError;
      const outcome: JobOutcome = !permanent && attempt < (job.opts.attempts ?? definition.attempts) ? 'retrying' : 'failed';
      this.finish(label, job, definition, outcome, started, (error as Error).message);
      throw permanent ? new UnrecoverableError(error.message) : error;
    } finally {
      clearTimeout(timer);
    }
  }

  private finish(label: string, job: Job, definition: JobDefinition, outcome: JobOutcome, started: number, reason?: string, quiet = false): void {
    const durationMs = Math.round(performance.now() - started);
    const fields = { jobId: job.id, job: job.name, outcome, durationMs };
    const message = `${label} ${outcome} in ${durationMs} ms${reason ? `: ${reason}` : ''}`;
    if (outcome === 'completed' && quiet) this.logger.debug(fields, message);
    else if (outcome === 'completed') this.logger.log(fields, message);
    else this.logger.warn(fields, message);
    this.observer?.finished(definition, outcome, durationMs);
  }
}

/** A sweep's result that says it did nothing: nothing returned, or only zeros, empty lists and falses. */
function foundNothing(result: unknown): boolean {
  if (result === undefined || result === null || result === 0 || result === false) return true;
  if (Array.isArray(result)) return result.length === 0;
  if (typeof result === 'object') return Object.values(result as Record<string, unknown>).every(foundNothing);
  return false;
}
