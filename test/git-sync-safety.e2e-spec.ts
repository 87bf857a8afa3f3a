import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TestApp, TestUser } from '@app/testing';
import { TestWorker } from '@app/testing/test-worker';
import { GitHttpServer } from './support/git-http-server';
import { GitSyncHarness, startGitSync } from './support/git-sync-harness';
import { space } from './spaces.fixtures';

const gitEnv = { ...process.env, GIT_AUTHOR_NAME: 'Repo', GIT_AUTHOR_EMAIL: 'repo@example.com', GIT_COMMITTER_NAME: 'Repo', GIT_COMMITTER_EMAIL: 'repo@example.com' };
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8', env: gitEnv });

/** Every file under `dir`, read as text (to look for a canary anywhere a process could have written it). */
function everything(dir: string): string {
  if (!existsSync(dir)) return '';
  return execFileSync('sh', ['-c', 'find . -type f -exec cat {} + 2>/dev/null || true'], { cwd: dir, encoding: 'latin1', maxBuffer: 256 * 1024 * 1024 });
}

describe('Git Sync safety: a repository never reaches the host', () => {
  let h: GitSyncHarness;
  let t: TestApp;
  let worker: TestWorker;
  let alice: TestUser;
  let org: string;
  let tmp: string;
  let http: GitHttpServer;
  let elsewhere: GitHttpServer;

  beforeAll(async () => {
    // Private addresses allowed, so the loopback git servers are reachable: what stops the attacks is not the address policy.
    h = await startGitSync('git-sync-safety', () => ({
      gitAllowedProtocols: ['http', 'https', 'file'],
      outboundAllowPrivate: true,
      gitSyncMaxBytes: 256 * 1024,
      gitSyncMaxFiles: 200,
      secretsKey: randomBytes(32).toString('base64'),
    }));
    ({ t, worker, alice, org, tmp } = h);
    mkdirSync(join(tmp, 'served'));
    mkdirSync(join(tmp, 'elsewhere'));
    http = await GitHttpServer.start(join(tmp, 'served'));
    elsewhere = await GitHttpServer.start(join(tmp, 'elsewhere'));
  });
  afterAll(async () => {
    await http.close();
    await elsewhere.close();
    await h.close();
  });

  /** A bare repository under `served/` (or `root`) with `files` on main; returns its paths. */
  function repository(files: (work: string) => void, root = join(tmp, 'served')): { bare: string; work: string; name: string } {
    const name = `r${randomBytes(4).toString('hex')}.git`;
    const bare = join(root, name);
    execFileSync('git', ['init', '-q', '--bare', '-b', 'main', bare]);
    const work = mkdtempSync(join(tmp, 'work-'));
    git(work, 'init', '-q', '-b', 'main');
    files(work);
    git(work, 'add', '-A');
    git(work, 'commit', '-q', '-m', 'docs');
    git(work, 'remote', 'add', 'origin', bare);
    git(work, 'push', '-q', 'origin', 'main');
    return { bare, work, name };
  }
  const basic = (work: string) => {
    writeFileSync(join(work, 'README.md'), '# Home\n\nWelcome.\n');
    writeFileSync(join(work, 'SUMMARY.md'), '# Table of contents\n\n* [Home](README.md)\n');
  };
  const commitAll = (work: string, message: string) => {
    git(work, 'add', '-A');
    git(work, 'commit', '-q', '-m', message);
    git(work, 'push', '-q', 'origin', 'main');
  };

  async function sync(spaceId: string, direction: 'import' | 'export', body: Record<string, unknown>): Promise<Record<string, any>> {
    const res = await alice.client.post(`/v1/spaces/${spaceId}/git/${direction}`, { ref: 'refs/heads/main', ...(direction === 'export' ? { commitMessage: 'Export' } : {}), ...body });
    if (res.status !== 204) throw new Error(`sync refused: ${res.status} ${JSON.stringify(res.body)}`);
    t.clock.advance(1000);
    for (let i = 0; i < 300; i++) {
      const [row] = await t.dataSource.query(`SELECT * FROM git_sync_operations WHERE space_id = $1 ORDER BY created_at DESC, id DESC LIMIT 1`, [spaceId]);
      if (row && ['success', 'failure', 'skipped'].includes(row.state)) return row;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('operation did not finish');
  }

  async function pageTexts(spaceId: string): Promise<string> {
    const pages = (await alice.client.get(`/v1/spaces/${spaceId}/content/pages`)).body.pages ?? [];
    const texts: string[] = [];
    const walk = async (list: any[]) => {
      for (const page of list) {
        texts.push(page.title, JSON.stringify((await alice.client.get(`/v1/spaces/${spaceId}/content/page/${page.id}?format=markdown`)).body));
        await walk(page.pages ?? []);
      }
    };
    await walk(pages);
    return texts.join('\n');
  }

  it('an export never writes through a symlink of the branch: the canary file stays, no repository config runs', async () => {
    const canary = join(tmp, `canary-${randomBytes(3).toString('hex')}.txt`);
    writeFileSync(canary, 'untouched\n');
    const pwned = join(tmp, `pwned-${randomBytes(3).toString('hex')}`);
    const hostile = `[core]\n\tfsmonitor = "touch ${pwned}"\n`;
    const { name, work } = repository((w) => {
      basic(w);
      mkdirSync(join(w, '.gitbook/assets'), { recursive: true });
      writeFileSync(join(w, '.gitbook/assets/x.cfg'), hostile);
    });
    const id = await space(alice, org);
    const url = `${http.url}/${name}`;
    expect((await sync(id, 'import', { url })).state).toBe('success');

    // The branch now holds symlinks where the space writes README.md and its file x.cfg.
    rmSync(join(work, 'README.md'));
    symlinkSync(canary, join(work, 'README.md'));
    rmSync(join(work, '.gitbook/assets/x.cfg'));
    symlinkSync('../../.git/config', join(work, '.gitbook/assets/x.cfg'));
    commitAll(work, 'symlinks');
    const done = await sync(id, 'export', { url, force: true });
    expect(done.state).toBe('success');
    expect(done.result.skipped).toEqual(expect.arrayContaining([{ path: 'README.md', reason: 'symlink' }, { path: '.gitbook/assets/x.cfg', reason: 'symlink' }]));
    expect(readFileSync(canary, 'utf8')).toBe('untouched\n');
    expect(existsSync(pwned)).toBe(false);
    // No working tree exists anywhere in the cache: nothing a repository holds was ever checked out.
    const cache = join(tmp, 'cache', id);
    for (const dir of readdirSync(cache)) expect(readdirSync(join(cache, dir))).not.toContain('.git');
    // The branch keeps its symlinks as they were.
    git(work, 'pull', '-q', 'origin', 'main');
    expect(git(work, 'ls-tree', 'HEAD', 'README.md').split(' ')[0]).toBe('120000');
  });

  it('an import never reads through a symlinked project directory or root: the host directory never reaches a space', async () => {
    const secretDir = mkdtempSync(join(tmp, 'host-dir-'));
    const secret = `HOSTSECRET${randomBytes(4).toString('hex')}`;
    writeFileSync(join(secretDir, 'README.md'), `# Salaries\n\n${secret}\n`);
    writeFileSync(join(secretDir, 'SUMMARY.md'), '# Table of contents\n\n* [Salaries](README.md)\n');
    const { name } = repository((w) => {
      symlinkSync(secretDir, join(w, 'docs'));
      mkdirSync(join(w, 'site'));
      writeFileSync(join(w, 'site/.gitbook.yaml'), 'root: ./linked/\n');
      symlinkSync(secretDir, join(w, 'site/linked'));
      writeFileSync(join(w, 'README.md'), '# Top\n');
    });
    const url = `${http.url}/${name}`;

    const projectDir = await space(alice, org);
    const viaProject = await sync(projectDir, 'import', { url, repoProjectDirectory: 'docs' });
    expect(viaProject.state).toBe('failure');
    expect(await pageTexts(projectDir)).not.toContain(secret);

    const viaRoot = await sync(await space(alice, org), 'import', { url, repoProjectDirectory: 'site' });
    expect(viaRoot.state).toBe('failure');
    expect(viaRoot.error).toMatch(/neither/);

    // An export into the symlinked project directory writes nothing there.
    const before = readdirSync(secretDir).sort();
    const exported = await sync(await space(alice, org), 'export', { url, repoProjectDirectory: 'docs', force: true });
    expect(exported.state).toBe('success');
    expect(exported.result.skipped).toEqual(expect.arrayContaining([expect.objectContaining({ reason: 'symlink' })]));
    expect(readdirSync(secretDir).sort()).toEqual(before);
    expect(readFileSync(join(secretDir, 'README.md'), 'utf8')).toContain(secret);
  });

  it('git follows no redirect: a remote answering 302 to another server is refused and the other server sees nothing', async () => {
    const { name } = repository(basic, join(tmp, 'elsewhere'));
    http.redirectTo = elsewhere.url;
    try {
      const before = elsewhere.requests.length;
      const id = await space(alice, org);
      const done = await sync(id, 'import', { url: `${http.url}/${name}` });
      expect(done.state).toBe('failure');
      expect(elsewhere.requests.length).toBe(before);
    } finally {
      http.redirectTo = null;
    }
  });

  it('credentials in the user part and the query string are sent to git and appear nowhere else', async () => {
    const password = `PASS${randomBytes(6).toString('hex')}`;
    const token = `TOKEN${randomBytes(6).toString('hex')}`;
    const treeSecret = `TREE${randomBytes(6).toString('hex')}`;
    const { name } = repository(basic);
    http.requireAuth = { username: 'x-access-token', password };
    try {
      const id = await space(alice, org);
      const done = await sync(id, 'import', {
        url: `http://x-access-token:${password}@${http.url.slice('http://'.length)}/${name}`,
        repoTreeURL: `https://u:${treeSecret}@github.com/acme/docs/tree/main?token=${treeSecret}`,
        gitInfo: { provider: 'github', url: `https://github.com/acme/docs?access_token=${treeSecret}` },
      });
      // The server demands the credentials: the import succeeding shows git sent them.
      expect(done.state).toBe('success');
      // A query-string token in a remote that then fails: never echoed in the error.
      const failed = await sync(id, 'import', { url: `${http.url}/missing.git?access_token=${token}`, force: true });
      expect(failed.state).toBe('failure');

      const stored = JSON.stringify([
        await t.dataSource.query('SELECT * FROM git_sync_operations WHERE space_id = $1', [id]),
        await t.dataSource.query('SELECT * FROM git_sync_states WHERE space_id = $1', [id]),
        await t.dataSource.query('SELECT type, data FROM domain_events WHERE space_id = $1', [id]),
        await t.dataSource.query('SELECT * FROM job_outbox').catch(() => []),
      ]);
      const shown = JSON.stringify([(await alice.client.get(`/v1/spaces/${id}/git/info`)).body, (await alice.client.get(`/v1/spaces/${id}`)).body]);
      const jobs = JSON.stringify([await worker.job('git-sync', `git-${done.id}`), await worker.job('git-sync', `git-${failed.id}`)]);
      const cache = everything(join(tmp, 'cache', id));
      for (const secret of [password, token, treeSecret]) {
        expect(stored).not.toContain(secret);
        expect(shown).not.toContain(secret);
        expect(jobs).not.toContain(secret);
        expect(cache).not.toContain(secret);
      }
      expect(cache).not.toContain(Buffer.from(`x-access-token:${password}`).toString('base64'));
      expect(JSON.parse(shown)[0].url).toBe('https://github.com/acme/docs/tree/main');
    } finally {
      http.requireAuth = null;
    }
  });

  it('a repository over GIT_SYNC_MAX_BYTES fails once, shows on git/info and the space, and leaves no cache', async () => {
    const { name } = repository((w) => {
      basic(w);
      mkdirSync(join(w, '.gitbook/assets'), { recursive: true });
      writeFileSync(join(w, '.gitbook/assets/big.bin'), randomBytes(400 * 1024));
    });
    const id = await space(alice, org);
    const done = await sync(id, 'import', { url: `${http.url}/${name}` });
    expect(done.state).toBe('failure');
    expect(done.error).toMatch(/GIT_SYNC_MAX_BYTES/);
    const job = await worker.settledJob('git-sync', `git-${done.id}`);
    expect(job?.attemptsMade).toBe(1);
    expect(await job?.isFailed()).toBe(true);
    const info = await alice.client.get(`/v1/spaces/${id}/git/info`);
    expect(info.status).toBe(200);
    expect(info.body.operation).toMatchObject({ state: 'failure', error: expect.stringMatching(/GIT_SYNC_MAX_BYTES/) });
    expect((await alice.client.get(`/v1/spaces/${id}`)).body.gitSync).toMatchObject({ repoName: expect.any(String) });
    expect(readdirSync(join(tmp, 'cache', id))).toEqual([]);
  });

  it('a repository over GIT_SYNC_MAX_FILES is refused from its listing, once', async () => {
    const { name } = repository((w) => {
      basic(w);
      for (let i = 0; i < 250; i++) writeFileSync(join(w, `p${i}.md`), `# P${i}\n`);
    });
    const id = await space(alice, org);
    const done = await sync(id, 'import', { url: `${http.url}/${name}` });
    expect(done.state).toBe('failure');
    expect(done.error).toMatch(/GIT_SYNC_MAX_FILES/);
    expect((await worker.settledJob('git-sync', `git-${done.id}`))?.attemptsMade).toBe(1);
  });

  it('submodules are skipped and reported', async () => {
    const { name, work } = repository(basic);
    git(work, 'update-index', '--add', '--cacheinfo', `160000,${'a'.repeat(40)},vendor/lib`);
    git(work, 'commit', '-q', '-m', 'submodule');
    git(work, 'push', '-q', 'origin', 'main');
    const id = await space(alice, org);
    const done = await sync(id, 'import', { url: `${http.url}/${name}` });
    expect(done.state).toBe('success');
    expect(done.result.skipped).toEqual([{ path: 'vendor/lib', reason: 'submodule' }]);
  });
});
