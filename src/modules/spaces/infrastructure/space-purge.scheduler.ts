import { InjectQueue } from '@nestjs/bullmq';
import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { Queue } from 'bullmq';
import { APP_CONFIG, AppConfig, JOBS, QUEUES } from '@app/common';

/**
 * Makes the purge of expired deleted spaces repeat every SPACE_PURGE_EVERY_MS. Upserting the
 * scheduler is idempotent, so every worker can do it at start and a changed interval replaces
 * the old one.
 */
@Injectable()
export class SpacePurgeScheduler implements OnApplicationBootstrap {
  constructor(
    @InjectQueue(QUEUES.maintenance) private readonly queue: Queue,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.queue.upsertJobScheduler(
      JOBS.purgeDeletedSpaces,
      { every: this.config.spacePurgeEveryMs },
      { name: JOBS.purgeDeletedSpaces },
    );
  }
}
