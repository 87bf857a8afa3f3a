import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import { APP_CONFIG, AppConfig, loadConfig } from '@app/common';
import { AppModule } from './app.module';
import { BootstrapLogger } from './bootstrap/bootstrap-logger';
import { configureApi } from './bootstrap/configure-api';
import { ensureDatabase } from './bootstrap/database-ready';
import { exitIfShutdownHangs } from './bootstrap/shutdown';
import { QuietStartupLogger } from './bootstrap/quiet-startup-logger';

const startupLog = new BootstrapLogger('api');

/** The API process: HTTP only. Queue processors run in worker.ts. */
async function bootstrap(): Promise<void> {
  const env = loadConfig(process.env); // fail fast, naming the bad variable, before any connection is made
  await ensureDatabase(env.databaseUrl, { attempts: env.dbConnectAttempts, retryMs: env.dbConnectRetryMs }, startupLog);
  const app = await NestFactory.create<NestExpressApplication>(AppModule, { bufferLogs: true, bodyParser: false, logger: startupLog });
  app.useLogger(new QuietStartupLogger(app.get(Logger)));
  const config = app.get<AppConfig>(APP_CONFIG);
  configureApi(app, config);
  exitIfShutdownHangs(config.shutdownTimeoutMs);
  await app.listen(config.port);
  // PORT=0 lets the OS choose; log the port actually bound so callers (and tests) can find it.
  const address = app.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  app.get(Logger).log(`API listening on port ${port}`);
}

bootstrap().catch((error: Error) => {
  startupLog.startupFailed(error);
  process.exit(1);
});
