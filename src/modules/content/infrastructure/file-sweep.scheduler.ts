import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@app/common';
import { JobPort } from '../../../jobs/job-port';
import { SweepFiles } from '../application/content.jobs';

/** Makes the file sweep repeat every FILES_SWEEP_EVERY_MS; scheduling is an upsert, so every worker does it at start. */
@Injectable()
export class FileSweepScheduler implements OnApplicationBootstrap {
  constructor(
    private readonly jobs: JobPort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.jobs.schedule(SweepFiles, { key: SweepFiles.name, everyMs: this.config.filesSweepEveryMs }, {});
  }
}
