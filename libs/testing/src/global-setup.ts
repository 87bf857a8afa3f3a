import { buildTemplateDatabase, dropRunDatabases, holdRunLock, releaseRunLock, testRunId, testServerUrl } from './database';
import { removeQueueKeys } from './redis-keys';
import { startTestServices, stopTestServices, testRedisUrl } from './services';

export default async function globalSetup(): Promise<void> {
  const run = testRunId(); // sets TEST_RUN_ID for the workers jest forks after this
  await startTestServices();
  const postgres = new URL(testServerUrl());
  // The first thing a run says: which PostgreSQL and Redis it writes to, and under which names.
  process.stdout.write(
    `\nTest run ${run}: PostgreSQL ${postgres.host}${process.env.TEST_EMBEDDED === '1' || postgres.port !== '5432' ? ' (started for this run)' : ''}, ` +
      `${process.env.TEST_POOLED_DATABASE_URL ? `queried through PgBouncer (transaction mode) at ${new URL(process.env.TEST_POOLED_DATABASE_URL).host}, ` : ''}` +
      `${testRedisUrl() ? `Redis ${new URL(testRedisUrl()!).host}` : 'no Redis (jobs on PostgreSQL)'}; databases and keys named docs_test_${run}_*. ` +
      `Interrupted runs leave them: npm run test:clean removes those of runs no longer alive.\n`,
  );
  await holdRunLock();
  cleanUpOnSignal(run);
  await buildTemplateDatabase();
}

/** Ctrl-C or a supervisor's SIGTERM: what the run made goes before jest exits (its teardown would not run). */
function cleanUpOnSignal(run: string): void {
  let cleaning = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      if (cleaning) return;
      cleaning = true;
      process.stderr.write(`\nTest run ${run} interrupted: removing its databases and keys\n`);
      void (async () => {
        await dropRunDatabases().catch(() => undefined);
        if (testRedisUrl()) await removeQueueKeys(testRedisUrl()!, `docs_test_${run}_`, { match: 'prefix' }).catch(() => undefined);
        await releaseRunLock();
        await stopTestServices().catch(() => undefined);
        process.exit(signal === 'SIGINT' ? 130 : 143);
      })();
    });
  }
}
