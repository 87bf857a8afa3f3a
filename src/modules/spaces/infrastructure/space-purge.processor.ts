import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger } from '@nestjs/common';
import { Job } from 'bullmq';
import { JOBS, QUEUES } from '@app/common';
import { SpacesService } from '../application/spaces.service';

/**
 * Consumes the maintenance queue in the worker process: purges spaces deleted longer ago than
 * SPACE_RETENTION_DAYS. The job carries no data; running it twice removes nothing more.
 */
@Processor(QUEUES.maintenance)
export class SpacePurgeProcessor extends WorkerHost {
  private readonly logger = new Logger(SpacePurgeProcessor.name);

  constructor(private readonly spaces: SpacesService) {
    super();
  }

  async process(job: Job): Promise<{ purged: number }> {
    if (job.name !== JOBS.purgeDeletedSpaces) {
      // Fail loudly rather than drop a job this worker does not know how to run.
      throw new Error(`Unknown job "${job.name}" on queue "${QUEUES.maintenance}"`);
    }
    const purged = await this.spaces.purgeExpired();
    this.logger.debug(`Job ${job.id}: purged ${purged} deleted space(s)`);
    return { purged };
  }
}
