import { Module } from '@nestjs/common';
import { SpacesModule } from './spaces.module';

/** The spaces context as the worker runs it: its application services plus its queue processors. */
@Module({ imports: [SpacesModule] })
export class SpacesWorkerModule {}
