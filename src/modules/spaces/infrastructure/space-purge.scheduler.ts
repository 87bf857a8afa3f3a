import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@app/common';
import { JobPort } from '../../../jobs/job-port';
import { PurgeDeletedSpaces } from '../application/space.jobs';

/**
 * Makes the purge of expired deleted spaces repeat every SPACE_PURGE_EVERY_MS. Scheduling is an
 * upsert under one key, so every worker can do it at start and the schedule still exists once.
 */
@Injectable()
export class SpacePurgeScheduler implements OnApplicationBootstrap {
  constructor(
    private readonly jobs: JobPort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.jobs.schedule(PurgeDeletedSpaces, { key: PurgeDeletedSpaces.name, everyMs: this.config.spacePurgeEveryMs }, {});
  }
}
