import { Module } from '@nestjs/common';
import { FlushJobOutboxHandler, OutboxSweepScheduler } from './outbox.handlers';

/** The worker's side of the job outbox: the sweep's handler and its schedule. */
@Module({ providers: [FlushJobOutboxHandler, OutboxSweepScheduler] })
export class JobOutboxWorkerModule {}
