import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig, CLOCK, Clock } from '@app/common';
import { Transactions } from '../../../database/transactions';
import { FileCollector } from '../../content/application/file-collector.service';
import { Space } from '../domain/space';
import { PURGE_BATCH, SpacesRepository } from '../infrastructure/spaces.repository';

@Injectable()
export class SpacePurgeService {
  private readonly logger = new Logger('SpacePurge');

  constructor(
    private readonly spaces: SpacesRepository,
    private readonly files: FileCollector,
    private readonly transactions: Transactions,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Removes for good every space deleted more than the retention window ago, with the stored
   * bytes of files no other space still names. Idempotent: a second run finds nothing more to
   * remove. Batches of spaces go in one transaction each (rows, then the bytes once the rows are
   * gone for sure); bytes a crash leaves behind are removed by the file sweep. Returns how many
   * spaces were removed.
   */
  async purgeExpired(): Promise<number> {
    const cutoff = Space.purgeCutoff(this.clock.now(), this.config.spaceRetentionDays);
    let removed = 0;
    let released = 0;
    for (;;) {
      const { ids, keys } = await this.transactions.run(async (tx) => {
        const ids = await this.spaces.lockPurgeable(cutoff, tx);
        const keys = await this.files.storageKeysOfSpaces(ids, tx);
        await this.spaces.deleteForGood(ids, tx);
        return { ids, keys };
      });
      removed += ids.length;
      released += await this.files.release(keys);
      if (ids.length < PURGE_BATCH) break;
    }
    if (removed > 0) this.logger.log(`Purged ${removed} space(s) deleted before ${cutoff.toISOString()} and ${released} stored file(s)`);
    return removed;
  }
}
