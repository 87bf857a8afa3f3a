import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { APP_CONFIG, AppConfig, CLOCK, Clock } from '@app/common';
import { Transactions } from '../../../database/transactions';
import { HandlesJob, JobHandler } from '../../../jobs/job-handler';
import { JobPort } from '../../../jobs/job-port';
import { RollupSiteInsights } from '../application/insights.jobs';
import { InsightsRepository } from './insights.repository';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Events a run folds at most (the next run takes the rest). */
const EVENTS_PER_RUN = 200_000;

@HandlesJob(RollupSiteInsights)
export class RollupSiteInsightsHandler implements JobHandler<Record<string, never>> {
  constructor(
    private readonly repository: InsightsRepository,
    private readonly transactions: Transactions,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async handle(): Promise<{ days: number; events: number; prunedEvents: number; prunedCounts: number }> {
    // One transaction: the counts of a day and the watermark move together (a killed run leaves both as they were).
    const folded = await this.transactions.run((tx) => this.repository.rollup(tx, this.config.insights.settleMs, EVENTS_PER_RUN));
    const now = this.clock.now().getTime();
    const pruned = await this.repository.prune(new Date(now - this.config.insights.eventsRetentionDays * DAY_MS), new Date(now - this.config.insights.retentionDays * DAY_MS).toISOString().slice(0, 10));
    await this.repository.dropSaltsBefore(new Date(now).toISOString().slice(0, 10));
    return { ...folded, prunedEvents: pruned.events, prunedCounts: pruned.counts };
  }
}

/** Schedules the rollup; scheduling is an upsert, so every worker does it at start. */
@Injectable()
export class RollupSiteInsightsScheduler implements OnApplicationBootstrap {
  constructor(
    private readonly jobs: JobPort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.jobs.schedule(RollupSiteInsights, { key: RollupSiteInsights.name, everyMs: this.config.insights.rollupEveryMs }, {});
  }
}
