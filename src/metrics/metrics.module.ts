import { driverPool } from '../database/pool-reads';
import { Global, Inject, Injectable, Module, OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { JobBackend } from '../jobs/bullmq/job-backend';
import { JobObserver, JobOutcome } from '../jobs/bullmq/job-runner';
import { JOB_OBSERVER } from '../jobs/jobs-worker.module';
import { registeredQueues } from '../jobs/job-registry';
import { jobDuration, jobRuns, trackSources } from './metrics';

class JobMetrics implements JobObserver {
  finished(job: { name: string }, outcome: JobOutcome, durationMs: number): void {
    jobRuns.inc({ job: job.name, outcome });
    jobDuration.observe({ job: job.name, outcome }, durationMs / 1000);
  }
}

@Injectable()
class MetricSources implements OnApplicationBootstrap {
  constructor(
    @Inject(JobBackend) private readonly backend: JobBackend,
    private readonly dataSource: DataSource,
  ) {}

  onApplicationBootstrap(): void {
    trackSources({
      queueDepth: () =>
        Promise.all(registeredQueues().map(async (queue) => ({ queue, counts: await this.backend.queue(queue).getJobCounts() }))),
      pool: () => {
        const pool = driverPool<{ totalCount: number; idleCount: number; waitingCount: number } | undefined>(this.dataSource);
        return pool ? { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount } : undefined;
      },
    });
  }
}

/** Feeds the process's metrics: job runs (through the job runner's observer), queue depth, pool use. */
@Global()
@Module({ providers: [{ provide: JOB_OBSERVER, useClass: JobMetrics }, MetricSources], exports: [JOB_OBSERVER] })
export class MetricsModule {}
