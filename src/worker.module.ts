import { Module } from '@nestjs/common';
import { AppConfigModule } from '@app/common';
import { CoreModule } from './core/core.module';
import { LoggingModule } from './core/logging.module';
import { DatabaseModule } from './database/database.module';
import { AccessModule } from './modules/access/access.module';
import { IdentityModule } from './modules/identity/identity.module';
import { SpacesWorkerModule } from './modules/spaces/spaces.worker.module';
import { QueueModule } from './queue/queue.module';

/** The worker's modules: the same application services as the API, plus the queue processors. */
@Module({
  imports: [
    AppConfigModule.forRoot(),
    LoggingModule,
    CoreModule,
    DatabaseModule.forRoot({ applyMigrations: false }),
    QueueModule,
    AccessModule,
    IdentityModule,
    SpacesWorkerModule,
  ],
})
export class WorkerModule {}
