import { HandlesJob, JobHandler } from '../../../jobs/job-handler';
import { SpacesService } from '../application/spaces.service';
import { PurgeDeletedSpaces } from '../application/space.jobs';

/** Purges spaces deleted longer ago than SPACE_RETENTION_DAYS. Running it twice removes nothing more. */
@HandlesJob(PurgeDeletedSpaces)
export class SpacePurgeHandler implements JobHandler<Record<string, never>> {
  constructor(private readonly spaces: SpacesService) {}

  async handle(): Promise<{ purged: number }> {
    return { purged: await this.spaces.purgeExpired() };
  }
}
