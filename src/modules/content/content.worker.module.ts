import { Module } from '@nestjs/common';
import { ContentCoreModule } from './content-core.module';
import { FileSweepHandler } from './infrastructure/file-sweep.handler';
import { FileSweepScheduler } from './infrastructure/file-sweep.scheduler';

/** The content context's job handlers; only the worker imports this module. */
@Module({ imports: [ContentCoreModule], providers: [FileSweepHandler, FileSweepScheduler] })
export class ContentWorkerModule {}
