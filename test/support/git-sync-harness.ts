import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppConfig } from '@app/common';
import { TestApp, TestUser } from '@app/testing';
import { TestWorker } from '@app/testing/test-worker';

/** An API and a worker for Git Sync tests: a temporary directory for caches and files, Alice and her organization. */
export interface GitSyncHarness {
  t: TestApp;
  worker: TestWorker;
  alice: TestUser;
  org: string;
  tmp: string;
  close(): Promise<void>;
}

export async function startGitSync(label: string, overrides: (tmp: string) => Partial<AppConfig> = () => ({})): Promise<GitSyncHarness> {
  const tmp = mkdtempSync(join(tmpdir(), `${label}-`));
  const t = await TestApp.start({ gitAllowedProtocols: ['https', 'ssh', 'file'], gitSyncDir: join(tmp, 'cache'), filesDir: join(tmp, 'files'), ...overrides(tmp) });
  const worker = await TestWorker.start(t);
  const alice = await t.user('Alice');
  const org = await t.organization(alice);
  return {
    t,
    worker,
    alice,
    org,
    tmp,
    async close() {
      await worker.close();
      await t.close();
      rmSync(tmp, { recursive: true, force: true });
    },
  };
}
