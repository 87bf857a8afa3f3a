import { Module } from '@nestjs/common';
import { SpacePurgeHandler } from './infrastructure/space-purge.handler';
import { SpacePurgeScheduler } from './infrastructure/space-purge.scheduler';
import { SpacesModule } from './spaces.module';

/**
 * The spaces context as the worker runs it: its application services plus its job
 * processors. Only the worker imports this module, so the API process never consumes jobs.
 */
@Module({ imports: [SpacesModule], providers: [SpacePurgeHandler, SpacePurgeScheduler] })
export class SpacesWorkerModule {}
