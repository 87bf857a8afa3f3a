import { Module } from '@nestjs/common';
import { InsightsRepository } from './infrastructure/insights.repository';
import { RollupSiteInsightsHandler, RollupSiteInsightsScheduler } from './infrastructure/insights.handlers';

/** The worker's side of site insights: the daily counts' rollup and the retention (no HTTP side needed). */
@Module({ providers: [InsightsRepository, RollupSiteInsightsHandler, RollupSiteInsightsScheduler] })
export class InsightsWorkerModule {}
