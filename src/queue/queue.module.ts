import { BullModule } from '@nestjs/bullmq';
import { Global, Module } from '@nestjs/common';
import { APP_CONFIG, AppConfig, DEFAULT_JOB_OPTIONS, QUEUES } from '@app/common';
import { redisConnection } from './redis-connection';

const queues = Object.values(QUEUES).map((name) => ({ name, defaultJobOptions: DEFAULT_JOB_OPTIONS }));

/** BullMQ on Redis. The API only enqueues; processors are registered by the worker process alone. */
@Global()
@Module({
  imports: [
    BullModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({ connection: redisConnection(config.redisUrl), prefix: config.queuePrefix }),
    }),
    BullModule.registerQueue(...queues),
  ],
  exports: [BullModule],
})
export class QueueModule {}
