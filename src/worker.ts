import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import { APP_CONFIG, AppConfig, loadConfig } from '@app/common';
import { BootstrapLogger } from './bootstrap/bootstrap-logger';
import { ensureDatabase } from './bootstrap/database-ready';
import { waitForRedis } from './bootstrap/redis-ready';
import { exitIfShutdownHangs } from './bootstrap/shutdown';
import { serveWorkerMetrics } from './metrics/worker-metrics-server';
import { WorkerModule } from './worker.module';
import { QuietStartupLogger } from './bootstrap/quiet-startup-logger';

const startupLog = new BootstrapLogger('worker');

/**
 * The worker process: BullMQ processors only, no HTTP. On SIGTERM the processors stop taking
 * jobs and the ones in flight finish before the process exits.
 */
async function bootstrap(): Promise<void> {
  const env = loadConfig(process.env); // fail fast, naming the bad variable, before any connection is made
  await ensureDatabase(env.databaseUrl, { attempts: env.dbConnectAttempts, retryMs: env.dbConnectRetryMs }, startupLog);
  await waitForRedis(env, startupLog); // a worker without Redis has nothing to do but say so
  const app = await NestFactory.createApplicationContext(WorkerModule, { bufferLogs: true, logger: startupLog });
  app.useLogger(new QuietStartupLogger(app.get(Logger)));
  app.enableShutdownHooks();
  const config = app.get<AppConfig>(APP_CONFIG);
  exitIfShutdownHangs(config.shutdownTimeoutMs);
  serveWorkerMetrics(config);
  app.get(Logger).log('Worker started');
}

bootstrap().catch((error: Error) => {
  startupLog.startupFailed(error);
  process.exit(1);
});
