import { dropRunDatabases, releaseRunLock, testRunId } from './database';
import { removeQueueKeys } from './redis-keys';
import { stopTestServices } from './services';

/** Everything the run created goes, even what a crashed test file did not get to clean up. */
export default async function globalTeardown(): Promise<void> {
  await dropRunDatabases();
  await removeQueueKeys(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', `docs_test_${testRunId()}_`, { match: 'prefix' });
  await releaseRunLock();
  await stopTestServices();
}
