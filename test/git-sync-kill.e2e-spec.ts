import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestApp, TestUser } from '@app/testing';
import { TestWorker } from '@app/testing/test-worker';
import { spawnWorker, until } from './support/worker-process';
import { space } from './spaces.fixtures';

const PAGES = 800;

describe('Git Sync: a worker SIGKILLed mid-import', () => {
  let t: TestApp;
  let alice: TestUser;
  let tmp: string;

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'git-sync-kill-'));
    t = await TestApp.start({
      gitAllowedProtocols: ['https', 'ssh', 'file'],
      gitSyncDir: join(tmp, 'cache'),
      filesDir: join(tmp, 'files'),
      jobsLockMs: 2000,
      jobsStalledIntervalMs: 1000,
    });
    alice = await t.user('Alice');
  });
  afterAll(async () => {
    await t.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  /** A large GitBook-layout repository, so the import is still running when the worker dies. */
  function largeRepository(): string {
    const work = join(tmp, 'work');
    mkdirSync(join(work, '.gitbook/assets'), { recursive: true });
    const summary = ['# Table of contents', '', '* [Home](README.md)'];
    writeFileSync(join(work, 'README.md'), '# Home\n\nWelcome.\n');
    for (let i = 0; i < PAGES; i++) {
      summary.push(`* [Page ${i}](page-${i}.md)`);
      writeFileSync(join(work, `page-${i}.md`), `# Page ${i}\n\n${'Some text with a [link](README.md) and **bold**.\n\n'.repeat(20)}{% hint style="info" %}\nNote ${i}\n{% endhint %}\n`);
    }
    for (let i = 0; i < 100; i++) writeFileSync(join(work, `.gitbook/assets/img-${i}.png`), randomBytes(20000));
    writeFileSync(join(work, 'SUMMARY.md'), `${summary.join('\n')}\n`);
    const bare = join(tmp, 'bare.git');
    const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, env: { ...process.env, GIT_AUTHOR_NAME: 'R', GIT_AUTHOR_EMAIL: 'r@x', GIT_COMMITTER_NAME: 'R', GIT_COMMITTER_EMAIL: 'r@x' } });
    mkdirSync(bare);
    git(bare, 'init', '-q', '--bare', '-b', 'main');
    git(work, 'init', '-q', '-b', 'main');
    git(work, 'add', '-A');
    git(work, 'commit', '-q', '-m', 'docs');
    git(work, 'push', '-q', bare, 'main');
    return `file://${bare}`;
  }

  const operation = async (spaceId: string) =>
    (await t.dataSource.query('SELECT state, result FROM git_sync_operations WHERE space_id = $1', [spaceId]))[0] as { state: string; result: any } | undefined;
  const revisions = async (spaceId: string) => Number((await t.dataSource.query('SELECT count(*) FROM revisions WHERE space_id = $1', [spaceId]))[0].count);
  const head = async (spaceId: string) => (await t.dataSource.query('SELECT revision_id FROM spaces WHERE id = $1', [spaceId]))[0].revision_id as string;

  it('leaves no half revision; the next worker runs the import once, completely', async () => {
    const url = largeRepository();
    const id = await space(alice, org());
    const before = { head: await head(id), revisions: await revisions(id) };

    const { child, exited } = spawnWorker(t, { GIT_SYNC_DIR: t.config.gitSyncDir, GIT_ALLOWED_PROTOCOLS: 'https,ssh,file' });
    try {
      expect((await alice.client.post(`/v1/spaces/${id}/git/import`, { url, ref: 'refs/heads/main' })).status).toBe(204);
      await until('the child to start the import', async () => (await operation(id))?.state === 'running', 120000);
      child.kill('SIGKILL');
      await exited;
      // Killed mid-import (the operation never finished): the space is exactly as it was.
      expect((await operation(id))?.state).toBe('running');
      expect(await head(id)).toBe(before.head);
      expect(await revisions(id)).toBe(before.revisions);

      const worker = await TestWorker.start(t);
      try {
        const done = await until('the import to finish', async () => {
          const op = await operation(id);
          return op && ['success', 'failure'].includes(op.state) ? op : undefined;
        }, 90000);
        expect(done.state).toBe('success');
        const pages = (await alice.client.get(`/v1/spaces/${id}/content/pages`)).body.pages;
        expect(pages).toHaveLength(PAGES + 1);
        expect(await revisions(id)).toBe(before.revisions + 1);
        expect(await head(id)).not.toBe(before.head);
      } finally {
        await worker.close();
      }
    } finally {
      child.kill('SIGKILL');
    }
  }, 240000);

  let orgId: string | undefined;
  function org(): string {
    return orgId!;
  }
  beforeAll(async () => {
    orgId = await t.organization(alice);
  });
});
