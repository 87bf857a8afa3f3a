import { Global, Inject, Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@app/common';
import { BullJobPort } from './bullmq/bull-job-port';
import { JobBackend, JobsConfig } from './bullmq/job-backend';
import { JobOperations } from './bullmq/job-operations';
import { JobPort } from './job-port';
import { RedisAvailability } from './bullmq/redis-availability';
import { registeredQueues } from './job-registry';
import { JobOutbox } from './outbox/job-outbox';

export function jobsConfig(config: AppConfig): JobsConfig {
  return {
    backend: config.jobsBackend,
    redisUrl: config.redisUrl,
    redisCluster: config.redisCluster,
    // BullMQ's PostgreSQL backend keeps session state (LISTEN, session locks): never through a pooler.
    databaseUrl: config.databaseDirectUrl,
    prefix: config.queuePrefix,
    pgSchema: config.jobsPgSchema,
    lockMs: config.jobsLockMs,
    stalledIntervalMs: config.jobsStalledIntervalMs,
    outagePatienceMs: config.jobsOutagePatienceMs,
  };
}

/** Closes this process's queue connections after everything that enqueues has stopped. */
@Injectable()
class JobBackendCloser implements OnApplicationShutdown {
  constructor(@Inject(JobBackend) private readonly backend: JobBackend) {}

  async onApplicationShutdown(): Promise<void> {
    await this.backend.close();
  }
}

/**
 * The job port for every process (API, worker, CLI). Modules inject `JobPort`; nothing outside
 * src/jobs imports BullMQ.
 */
@Global()
@Module({
  providers: [
    { provide: JobBackend, inject: [APP_CONFIG], useFactory: (config: AppConfig) => new JobBackend(jobsConfig(config)) },
    { provide: JobPort, inject: [JobBackend], useFactory: (backend: JobBackend) => new BullJobPort(backend) },
    { provide: JobOperations, inject: [JobBackend], useFactory: (backend: JobBackend) => new JobOperations(backend, registeredQueues()) },
    JobBackendCloser,
    RedisAvailability,
    JobOutbox,
  ],
  exports: [JobPort, JobOperations, JobBackend, JobOutbox],
})
export class JobsModule {}
