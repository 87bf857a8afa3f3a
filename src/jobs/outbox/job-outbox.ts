import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig, newId } from '@app/common';
import { Tx } from '../../database/transactions';
import { JobDefinition } from '../job-definition';
import { EnqueueOptions, JobPort } from '../job-port';
import { JOB_REGISTRY } from '../job-registry';
import { assertNoSecrets } from '../secrets-guard';

interface StagedJob {
  id: string;
  job: JobDefinition<any>;
  payload: object;
  jobId: string;
  delayMs: number;
}

/** Jobs written in a transaction with the work they belong to; `release` them once it has committed. */
export class StagedJobs {
  constructor(readonly jobs: readonly StagedJob[]) {}
}

/** A staged job older than this is the sweep's: the process that staged it had this long to queue it. */
const SWEEP_MIN_AGE_SECONDS = 5;
const SWEEP_BATCH = 500;

/**
 * The transactional outbox of background work. A use case that records work to be done (an import
 * run, a Git Sync operation, a translation run) stages its job in the same transaction, so the job
 * exists exactly when the work does, then releases it to the queue after the commit. A process that
 * dies in between, or a queue that does not answer, leaves the staged row; the worker's sweep
 * (`FlushJobOutbox`) queues it later. Every staged job has a job id (the caller's, or one derived
 * from its row), so queueing it twice adds it once.
 */
@Injectable()
export class JobOutbox {
  private readonly logger = new Logger('JobOutbox');

  constructor(
    private readonly dataSource: DataSource,
    private readonly jobs: JobPort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async stage<P extends object>(tx: Tx, job: JobDefinition<P>, items: Array<{ payload: P; options?: EnqueueOptions }>): Promise<StagedJobs> {
    const staged = items.map(({ payload, options }): StagedJob => {
      assertNoSecrets(job.name, payload);
      const id = newId();
      return { id, job, payload, jobId: options?.jobId ?? `outbox-${id}`, delayMs: options?.delayMs ?? 0 };
    });
    if (staged.length > 0) {
      await tx.query(
        `INSERT INTO job_outbox (id, job_name, payload, job_id, delay_ms)
         SELECT * FROM unnest($1::varchar[], $2::varchar[], $3::jsonb[], $4::varchar[], $5::int[])`,
        [staged.map((s) => s.id), staged.map((s) => s.job.name), staged.map((s) => JSON.stringify(s.payload)), staged.map((s) => s.jobId), staged.map((s) => s.delayMs)],
      );
    }
    return new StagedJobs(staged);
  }

  /**
   * Queues jobs staged by a committed transaction. Waits at most JOBS_ENQUEUE_WAIT_MS: a queue that
   * does not answer by then still gets them when it does (or the sweep does), and the request that
   * made the work is answered meanwhile instead of hanging on the queue.
   */
  async release(staged: StagedJobs): Promise<void> {
    if (staged.jobs.length === 0) return;
    const queued = this.queue(staged.jobs)
      .then(() => this.forget(staged.jobs.map((s) => s.id)))
      .catch((error: unknown) => this.logger.warn(`${staged.jobs.length} staged job(s) not queued yet (${(error as Error).message}); the outbox sweep will queue them`));
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, this.config.jobsEnqueueWaitMs)));
    await Promise.race([queued, waited]);
    clearTimeout(timer);
  }

  /** Queues staged jobs their own process did not (oldest first, a batch at a time); returns how many. */
  async sweep(): Promise<number> {
    let total = 0;
    for (;;) {
      const swept = await this.sweepBatch();
      total += swept;
      if (swept < SWEEP_BATCH) return total;
    }
  }

  private sweepBatch(): Promise<number> {
    return this.dataSource.transaction(async (tx) => {
      const rows: Array<{ id: string; job_name: string; payload: object; job_id: string; delay_ms: number }> = await tx.query(
        `SELECT id, job_name, payload, job_id, delay_ms FROM job_outbox
         WHERE created_at < now() - make_interval(secs => $1)
         ORDER BY created_at, id LIMIT $2 FOR UPDATE SKIP LOCKED`,
        [SWEEP_MIN_AGE_SECONDS, SWEEP_BATCH],
      );
      const staged: StagedJob[] = [];
      for (const row of rows) {
        const job = JOB_REGISTRY.find((definition) => definition.name === row.job_name);
        // A job no longer registered (a version that dropped it) can never run: dropped, and said so.
        if (!job) this.logger.error(`Staged job ${row.id} names "${row.job_name}", which is not a registered job; dropped`);
        else staged.push({ id: row.id, job, payload: row.payload, jobId: row.job_id, delayMs: row.delay_ms });
      }
      await this.queue(staged);
      if (rows.length > 0) await tx.query(`DELETE FROM job_outbox WHERE id = ANY($1)`, [rows.map((row) => row.id)]);
      return rows.length;
    });
  }

  private async queue(staged: readonly StagedJob[]): Promise<void> {
    const byJob = new Map<JobDefinition<any>, StagedJob[]>();
    for (const item of staged) byJob.set(item.job, [...(byJob.get(item.job) ?? []), item]);
    for (const [job, items] of byJob) {
      await this.jobs.enqueueMany(
        job,
        items.map((item) => ({ payload: item.payload, options: { jobId: item.jobId, ...(item.delayMs ? { delayMs: item.delayMs } : {}) } })),
      );
    }
  }

  private async forget(ids: string[]): Promise<void> {
    await this.dataSource.query(`DELETE FROM job_outbox WHERE id = ANY($1)`, [ids]);
  }
}
