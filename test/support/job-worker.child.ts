import { Pool } from 'pg';
import { JobBackend, JobsConfig } from '../../src/jobs/bullmq/job-backend';
import { JobRunner } from '../../src/jobs/bullmq/job-runner';
import { TEST_JOBS, testHandlers } from './test-jobs';

/** A worker process for the SIGKILL test: runs the test jobs, the slow one hanging, until killed. */
async function main(): Promise<void> {
  const config = JSON.parse(process.env.TEST_JOBS_CONFIG!) as JobsConfig;
  const pool = new Pool({ connectionString: config.databaseUrl, max: 2 });
  const runner = new JobRunner(new JobBackend(config), TEST_JOBS, testHandlers(pool, { hang: true }));
  await runner.start();
  process.stdout.write('ready\n');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
