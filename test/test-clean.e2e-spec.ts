import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Redis from 'ioredis';
import { Client } from 'pg';
import { testRedisUrl, testRunId } from '@app/testing';
import { testServerUrl } from '../libs/testing/src/database';

const run = promisify(execFile);

/** `npm run test:clean`: what interrupted runs left goes; what live runs use stays. */
describe('test:clean', () => {
  it('removes the databases and keys of runs no longer alive, and leaves live runs alone', async () => {
    const dead = `zz${randomBytes(4).toString('hex')}`;
    const live = `yy${randomBytes(4).toString('hex')}`;
    const admin = new Client({ connectionString: testServerUrl() });
    const holder = new Client({ connectionString: testServerUrl() });
    await Promise.all([admin.connect(), holder.connect()]);
    const redis = testRedisUrl() ? new Redis(testRedisUrl()!) : null;
    try {
      for (const name of [`docs_test_${dead}_template`, `docs_test_${dead}_app_1`, `docs_test_${live}_app_1`]) await admin.query(`CREATE DATABASE ${name}`);
      await redis?.set(`docs_test_${dead}_queue:{q}:id`, '1');
      // A live run holds its lock on a connection of its own.
      await holder.query(`SELECT pg_advisory_lock(hashtext('docs_test_run:' || $1))`, [live]);
      const { stdout } = await run(process.execPath, [join(__dirname, '../scripts/test-clean.js')], {
        env: { ...process.env, TEST_DATABASE_URL: testServerUrl(), TEST_CLEAN_ONLY: `${dead},${live},${testRunId()}` },
      });
      expect(stdout).toContain(`run ${dead}: removed 2 databases and ${redis ? 1 : 0} Redis keys`);
      expect(stdout).toContain(`run ${live}: alive, left alone`);
      expect(stdout).toContain(`run ${testRunId()}: alive, left alone`);
      const { rows } = await admin.query(`SELECT datname FROM pg_database WHERE datname LIKE $1 OR datname LIKE $2 ORDER BY datname`, [`docs_test_${dead}%`, `docs_test_${live}%`]);
      expect(rows.map((r) => r.datname)).toEqual([`docs_test_${live}_app_1`]);
      if (redis) expect(await redis.exists(`docs_test_${dead}_queue:{q}:id`)).toBe(0);
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS docs_test_${live}_app_1`).catch(() => undefined);
      await Promise.all([admin.end(), holder.end()]);
      redis?.disconnect();
    }
  });
});
