import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestApp, TestUser } from '@app/testing';
import { contractTransport } from './support/contract-transport';
import { TestWorker } from '@app/testing/test-worker';
import { space } from './spaces.fixtures';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { GitBookAPI } = require('@gitbook/api');

describe('Git Sync through the official @gitbook/api client', () => {
  let t: TestApp;
  let worker: TestWorker;
  let owner: TestUser;
  let tmp: string;
  let endpoint: string;
  const transport = contractTransport();

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'git-sync-client-'));
    t = await TestApp.start({ gitAllowedProtocols: ['https', 'ssh', 'file'], gitSyncDir: join(tmp, 'cache'), filesDir: join(tmp, 'files') });
    await t.app.listen(0, '127.0.0.1');
    endpoint = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    worker = await TestWorker.start(t);
    owner = await t.user('Owner');
  });
  afterAll(async () => {
    await worker.close();
    await t.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('imports, exports, reads the info and removes the installation', async () => {
    const bare = join(tmp, 'bare.git');
    const work = join(tmp, 'work');
    cpSync(join(__dirname, 'fixtures/gitbook-repo'), work, { recursive: true });
    const env = { ...process.env, GIT_AUTHOR_NAME: 'R', GIT_AUTHOR_EMAIL: 'r@x', GIT_COMMITTER_NAME: 'R', GIT_COMMITTER_EMAIL: 'r@x' };
    execFileSync('git', ['init', '-q', '--bare', '-b', 'main', bare]);
    for (const args of [['init', '-q', '-b', 'main'], ['add', '-A'], ['commit', '-q', '-m', 'docs'], ['push', '-q', bare, 'main']]) execFileSync('git', args, { cwd: work, env });
    const url = `file://${bare}`;

    const api = new GitBookAPI({ endpoint, authToken: owner.token, serviceBinding: transport });
    const org = await t.organization(owner);
    const id = await space(owner, org);
    const missing = await api.spaces.getSpaceGitInfo(id).catch((e: { code?: number; statusCode?: number }) => e);
    expect(missing.code ?? missing.statusCode).toBe(404);

    expect((await api.spaces.importGitRepository(id, { url, ref: 'refs/heads/main' })).status).toBe(204);
    const waitForInfo = async () => {
      for (let i = 0; i < 200; i++) {
        const info = await api.spaces.getSpaceGitInfo(id).catch(() => null);
        if (info) return info;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error('no git info');
    };
    const info = await waitForInfo();
    expect(info.data).toMatchObject({ repoName: expect.stringContaining('bare'), url });

    t.clock.advance(1000);
    expect((await api.spaces.exportToGitRepository(id, { url, ref: 'refs/heads/export', commitMessage: 'From the client' })).status).toBe(204);
    for (let i = 0; i < 200; i++) {
      const [row] = await t.dataSource.query(`SELECT state FROM git_sync_operations WHERE space_id = $1 AND direction = 'export'`, [id]);
      if (row && row.state !== 'queued' && row.state !== 'running') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    // Nothing changed since the import: the new branch starts at the default branch and gets no commit of its own.
    const rev = (ref: string) => execFileSync('git', ['rev-parse', ref], { cwd: bare, encoding: 'utf8' }).trim();
    expect(rev('export')).toBe(rev('main'));

    expect((await api.spaces.deleteLegacyGitInstallation(id)).status).toBe(205);
    expect((await api.spaces.deleteLegacyGitInstallation(id)).status).toBe(204);
  });
});
