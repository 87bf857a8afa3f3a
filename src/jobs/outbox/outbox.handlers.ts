import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@app/common';
import { HandlesJob, JobHandler } from '../job-handler';
import { JobPort } from '../job-port';
import { JobOutbox } from './job-outbox';
import { FlushJobOutbox } from './outbox.jobs';

@HandlesJob(FlushJobOutbox)
export class FlushJobOutboxHandler implements JobHandler<Record<string, never>> {
  constructor(private readonly outbox: JobOutbox) {}

  async handle(): Promise<{ queued: number }> {
    return { queued: await this.outbox.sweep() };
  }
}

/** Makes the outbox sweep repeat every JOBS_OUTBOX_SWEEP_MS; scheduling is an upsert, so every worker does it at start. */
@Injectable()
export class OutboxSweepScheduler implements OnApplicationBootstrap {
  constructor(
    private readonly jobs: JobPort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.jobs.schedule(FlushJobOutbox, { key: FlushJobOutbox.name, everyMs: this.config.jobsOutboxSweepMs }, {});
  }
}
