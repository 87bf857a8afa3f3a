import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import { APP_CONFIG, AppConfig, loadConfig } from '@app/common';
import { exitIfShutdownHangs } from './bootstrap/shutdown';
import { WorkerModule } from './worker.module';

/**
 * The worker process: BullMQ processors only, no HTTP. On SIGTERM the processors stop taking
 * jobs and the ones in flight finish before the process exits.
 */
async function bootstrap(): Promise<void> {
  loadConfig(process.env); // fail fast, naming the bad variable, before any connection is made
  const app = await NestFactory.createApplicationContext(WorkerModule, { bufferLogs: true });
  app.useLogger(app.get(Logger));
  app.enableShutdownHooks();
  exitIfShutdownHangs(app.get<AppConfig>(APP_CONFIG).shutdownTimeoutMs);
  app.get(Logger).log('Worker started');
}

bootstrap().catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
