import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import { WorkerModule } from './worker.module';

/**
 * The worker process: BullMQ processors only, no HTTP. On SIGTERM the processors stop taking
 * jobs and the ones in flight finish before the process exits.
 */
async function bootstrap(): Promise<void> {
  const app = await NestFactory.createApplicationContext(WorkerModule, { bufferLogs: true });
  app.useLogger(app.get(Logger));
  app.enableShutdownHooks();
  app.get(Logger).log('Worker started');
}

bootstrap().catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
