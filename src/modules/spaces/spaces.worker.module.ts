import { Module } from '@nestjs/common';
import { SpacePurgeProcessor } from './infrastructure/space-purge.processor';
import { SpacePurgeScheduler } from './infrastructure/space-purge.scheduler';
import { SpacesModule } from './spaces.module';

/**
 * The spaces context as the worker runs it: its application services plus its queue
 * processors. Only the worker imports this module, so the API process never consumes jobs.
 */
@Module({ imports: [SpacesModule], providers: [SpacePurgeProcessor, SpacePurgeScheduler] })
export class SpacesWorkerModule {}
