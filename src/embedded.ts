import 'reflect-metadata';
import { join } from 'node:path';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import { loadConfig } from '@app/common';
import { AppModule } from './app.module';
import { configureApi } from './bootstrap/configure-api';
import { dataDir, removeConnectionFile, writeConnectionFile } from './embedded/connection-file';
import { ensureDatabase, startEmbeddedPostgres } from './embedded/embedded-postgres';
import { embeddedSecretsKey } from './embedded/secrets-key';
import { WorkerModule } from './worker.module';
import { QuietStartupLogger } from './bootstrap/quiet-startup-logger';

const DATABASE = 'docs_platform';

/**
 * The embedded default (`npm start` with no DATABASE_URL): PostgreSQL's own binaries on a
 * cluster under ./var, jobs on BullMQ's PostgreSQL backend, files on local disk, and the API and
 * the worker in this one process. Everything is kept across restarts.
 */
async function bootstrap(): Promise<void> {
  const dir = dataDir();
  const startedAt = performance.now();
  const postgres = await startEmbeddedPostgres(join(dir, 'postgres'));
  await ensureDatabase(postgres.url('postgres'), DATABASE);
  process.env.DATABASE_URL = postgres.url(DATABASE);
  process.env.JOBS_BACKEND ??= 'postgres';
  process.env.FILES_DIR ??= join(dir, 'files');
  let secretsNote = 'SECRETS_KEY from the environment';
  if (!process.env.SECRETS_KEY) {
    const secrets = embeddedSecretsKey(dir);
    process.env.SECRETS_KEY = secrets.key;
    secretsNote = `${secrets.path} (${secrets.created ? 'made now' : 'kept'}; back it up with the data: stored secrets need it)`;
  }
  const config = loadConfig(process.env); // fail fast, naming the bad variable

  const api = await NestFactory.create<NestExpressApplication>(AppModule, { bufferLogs: true, bodyParser: false });
  api.useLogger(new QuietStartupLogger(api.get(Logger)));
  configureApi(api, config);
  await api.listen(config.port);
  writeConnectionFile(dir, { url: process.env.DATABASE_URL, pid: process.pid });
  const worker = await NestFactory.createApplicationContext(WorkerModule, { bufferLogs: true });
  worker.useLogger(new QuietStartupLogger(worker.get(Logger)));

  const address = api.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  api.get(Logger).log(`API listening on port ${port}`);
  const seconds = ((performance.now() - startedAt) / 1000).toFixed(1);
  process.stdout.write(
    [
      '',
      `Docs platform running (embedded mode, ready in ${seconds} s)`,
      `  API:        http://localhost:${port}   (OpenAPI: http://localhost:${port}/docs)`,
      `  Data:       ${dir}   (PostgreSQL cluster, files; kept across restarts)`,
      `  Secrets:    ${secretsNote}`,
      `  Jobs:       PostgreSQL backend, worker in this process; dashboard at /admin/queues`,
      `  First user: npm run cli -- users:create --email you@example.com --name "Your Name" --instance-admin`,
      '              (prints an API token; the CLI finds this database through the data directory)',
      '',
    ].join('\n'),
  );

  // One ordered stop replaces Nest's and embedded-postgres's own signal handlers, which would
  // otherwise race: the worker finishes its jobs, the API its requests, then PostgreSQL stops.
  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    const timer = setTimeout(() => process.exit(1), config.shutdownTimeoutMs + 5000);
    removeConnectionFile(dir);
    await worker.close().catch(() => undefined);
    await api.close().catch(() => undefined);
    await postgres.stop().catch(() => undefined);
    clearTimeout(timer);
    // Asked to stop, and stopped in order: a clean exit for the terminal and for supervisors.
    process.stdout.write(`Stopped (${signal}): worker, API and PostgreSQL\n`);
    process.exit(0);
  };
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    process.removeAllListeners(signal);
    process.on(signal, () => void stop(signal));
  }
}

bootstrap().catch((error: Error) => {
  console.error(`Embedded mode failed to start: ${error.message}`);
  process.exit(1);
});
