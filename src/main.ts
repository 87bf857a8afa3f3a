import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import { APP_CONFIG, AppConfig, loadConfig } from '@app/common';
import { AppModule } from './app.module';
import { configureApi } from './bootstrap/configure-api';
import { exitIfShutdownHangs } from './bootstrap/shutdown';

/** The API process: HTTP only. Queue processors run in worker.ts. */
async function bootstrap(): Promise<void> {
  loadConfig(process.env); // fail fast, naming the bad variable, before any connection is made
  const app = await NestFactory.create<NestExpressApplication>(AppModule, { bufferLogs: true, bodyParser: false });
  app.useLogger(app.get(Logger));
  const config = app.get<AppConfig>(APP_CONFIG);
  configureApi(app, config);
  exitIfShutdownHangs(config.shutdownTimeoutMs);
  await app.listen(config.port);
  app.get(Logger).log(`API listening on port ${config.port}`);
}

bootstrap().catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
