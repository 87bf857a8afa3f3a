import { TestApp } from '@app/testing';

/**
 * Polls `probe` until it gives something other than undefined, null or false (its value), or fails
 * naming `what` after `timeoutMs`. Tests wait on what they can observe, never for a fixed time.
 */
export async function until<T>(what: string, probe: () => T | undefined | null | false | Promise<T | undefined | null | false>, timeoutMs = 20000, everyMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== null && value !== false) return value as T;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/**
 * Runs the requests `start` makes while a test transaction holds `lockSql`'s locks, and lets go once
 * `waiters` sessions of the test database wait on a lock: races are held open, not hoped for.
 */
export async function whileLocked<T>(t: TestApp, lockSql: string, params: unknown[], waiters: number, start: () => Promise<T>[]): Promise<T[]> {
  const runner = t.dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.startTransaction();
    await runner.query(lockSql, params);
    const pending = Promise.all(start());
    await until(
      `${waiters} requests waiting on the lock`,
      async () => {
        const [{ n }] = await t.dataSource.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`);
        return n >= waiters || undefined;
      },
      5000,
      10,
    );
    await runner.commitTransaction();
    return await pending;
  } finally {
    await runner.release();
  }
}
