import { Module } from '@nestjs/common';
import { SitesModule } from '../sites/sites.module';
import { InsightsController } from './api/insights.controller';
import { InsightsRecorder } from './application/insights-recorder';
import { InsightsService } from './application/insights.service';
import { InsightsRepository } from './infrastructure/insights.repository';

/** Site insights: readers' events in, counts out. Our reader pages record through InsightsService too. */
@Module({
  imports: [SitesModule],
  controllers: [InsightsController],
  providers: [InsightsService, InsightsRecorder, InsightsRepository],
  exports: [InsightsService],
})
export class InsightsModule {}
