import { HandlesJob, JobHandler } from '../../../jobs/job-handler';
import { SpacePurgeService } from '../application/space-purge.service';
import { PurgeDeletedSpaces } from '../application/space.jobs';

/** Purges spaces deleted longer ago than SPACE_RETENTION_DAYS. Running it twice removes nothing more. */
@HandlesJob(PurgeDeletedSpaces)
export class SpacePurgeHandler implements JobHandler<Record<string, never>> {
  constructor(private readonly purge: SpacePurgeService) {}

  async handle(): Promise<{ purged: number }> {
    return { purged: await this.purge.purgeExpired() };
  }
}
