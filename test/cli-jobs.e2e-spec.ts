import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Logger } from '@nestjs/common';
import { TestApp } from '@app/testing';
import { JobBackend } from '../src/jobs/bullmq/job-backend';
import { JobRunner } from '../src/jobs/bullmq/job-runner';
import { PurgeDeletedSpaces } from '../src/modules/spaces/application/space.jobs';

Logger.overrideLogger(false);
const run = promisify(execFile);
const ROOT = join(__dirname, '..');

/** The operator CLI's instance-admin and job commands, run from source against this test's database and job backend. */
describe('operator CLI: instance administrators and jobs', () => {
  let t: TestApp;
  let cli: (...args: string[]) => Promise<any>;

  beforeAll(async () => {
    t = await TestApp.start();
    const env = {
      ...process.env,
      TS_NODE_PROJECT: join(ROOT, 'tsconfig.json'),
      DATABASE_URL: t.config.databaseUrl,
      QUEUE_PREFIX: t.config.queuePrefix,
      JOBS_BACKEND: t.config.jobsBackend,
    };
    cli = async (...args: string[]) => {
      const { stdout } = await run(process.execPath, ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register', join(ROOT, 'src/cli.ts'), ...args], {
        cwd: ROOT,
        env,
        timeout: 120000 /* ts-node compiles the CLI on each run: ~10 s alone, several times that beside the whole suite on 2 cores */,
      });
      return JSON.parse(stdout.trim());
    };
  });
  afterAll(() => t.close());

  it('creates an instance administrator, promotes a user and revokes it', async () => {
    const admin = await cli('users:create', '--email', 'root@example.com', '--name', 'Root', '--instance-admin');
    expect(admin).toMatchObject({ instanceAdmin: true, user: { email: 'root@example.com' } });
    expect(admin.user.instanceAdmin).toBeUndefined(); // never part of GitBook's User object
    const user = await t.user();
    expect(await cli('users:promote', '--email', user.email)).toMatchObject({ instanceAdmin: true });
    expect(await cli('users:promote', '--email', user.email, '--revoke')).toMatchObject({ instanceAdmin: false });
  }, 300000);

  it('lists failed jobs, retries one to completion and removes it', async () => {
    let broken = true;
    const backend = t.get<JobBackend>(JobBackend);
    const runner = new JobRunner(backend, [PurgeDeletedSpaces], new Map([[PurgeDeletedSpaces.name, {
      handle: async () => {
        if (broken) throw new Error('storage unavailable');
        return { purged: 0 };
      },
    }]]));
    await runner.start();
    try {
      const job = await backend.queue(PurgeDeletedSpaces.queue).add(PurgeDeletedSpaces.name, {}, { attempts: 1 });
      for (let i = 0; i < 100 && (await job.getState()) !== 'failed'; i++) await new Promise((r) => setTimeout(r, 100));

      const listed = await cli('jobs:list', '--state', 'failed');
      expect(listed.jobs).toEqual([expect.objectContaining({ id: job.id, queue: 'maintenance', name: PurgeDeletedSpaces.name, state: 'failed', failedReason: 'storage unavailable' })]);

      broken = false;
      expect((await cli('jobs:retry', String(job.id))).job).toMatchObject({ id: job.id, state: 'waiting' });
      for (let i = 0; i < 100 && (await job.getState()) !== 'completed'; i++) await new Promise((r) => setTimeout(r, 100));
      expect(await job.getState()).toBe('completed');
      expect((await cli('jobs:list', '--state', 'completed')).jobs.map((j: { id: string }) => j.id)).toContain(job.id);

      expect((await cli('jobs:remove', String(job.id))).job).toMatchObject({ id: job.id, state: 'removed' });
      expect(await backend.queue(PurgeDeletedSpaces.queue).getJob(String(job.id))).toBeUndefined();
      await expect(cli('jobs:retry', String(job.id))).rejects.toMatchObject({ stderr: expect.stringMatching(/No job/) });
    } finally {
      await runner.close();
    }
  }, 400000);
});
