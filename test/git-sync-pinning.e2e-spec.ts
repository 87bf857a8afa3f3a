import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '@app/common';
import { GitClient, HostResolver } from '../src/modules/git-sync/infrastructure/git-client';
import { parseRemoteUrl } from '../src/modules/git-sync/domain/remote-url';
import { GitHttpServer } from './support/git-http-server';

/**
 * Git connects to the address the host check saw, never to one of its own resolving: the
 * resolver here knows names the system's does not (`.test` is reserved and resolves nowhere),
 * so a fetch through such a name only works when git is pinned to the checked address.
 */
describe('Git Sync: the host is resolved once and git is pinned to that address', () => {
  let tmp: string;
  let http: GitHttpServer;
  let port: string;
  const asked: string[] = [];

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'git-sync-pinning-'));
    const work = join(tmp, 'work');
    mkdirSync(work);
    writeFileSync(join(work, 'README.md'), '# Pinned\n');
    const env = { ...process.env, GIT_AUTHOR_NAME: 'R', GIT_AUTHOR_EMAIL: 'r@x', GIT_COMMITTER_NAME: 'R', GIT_COMMITTER_EMAIL: 'r@x' };
    execFileSync('git', ['init', '-q', '--bare', '-b', 'main', join(tmp, 'served', 'docs.git')]);
    for (const args of [['init', '-q', '-b', 'main'], ['add', '-A'], ['commit', '-q', '-m', 'docs'], ['push', '-q', join(tmp, 'served', 'docs.git'), 'main']]) execFileSync('git', args, { cwd: work, env });
    http = await GitHttpServer.start(join(tmp, 'served'));
    port = new URL(http.url).port;
  });
  afterAll(async () => {
    await http.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  function client(resolver: HostResolver, allowPrivate: boolean): GitClient {
    const config = loadConfig({ GIT_SYNC_DIR: join(tmp, `cache-${Math.random().toString(36).slice(2)}`), GIT_ALLOWED_PROTOCOLS: 'http', OUTBOUND_ALLOW_PRIVATE: String(allowPrivate) });
    return new GitClient(config, async (host) => (asked.push(host), resolver(host)));
  }
  const target = (host: string) => ({ remote: parseRemoteUrl(`http://${host}:${port}/docs.git`, ['http']), cacheId: host, spaceId: 'space' });

  it('fetches through a name only the checked resolution knows (git does not resolve it again)', async () => {
    const git = client(async (host) => (host === 'git.pinned.test' ? [{ address: '127.0.0.1' }] : []), true);
    const before = http.requests.length;
    const { commit } = await git.fetch(target('git.pinned.test'), 'refs/heads/main');
    expect(commit).toMatch(/^[0-9a-f]{40}$/);
    expect(http.requests.length).toBeGreaterThan(before);
    // The request names the host it was made for, and went to the address the check saw.
    expect(http.requests.at(-1)!.headers.host).toBe(`git.pinned.test:${port}`);
    expect(asked.filter((h) => h === 'git.pinned.test')).toHaveLength(1);
  });

  it('refuses a name with any private address before git runs, and one the resolver does not know', async () => {
    const before = http.requests.length;
    const rebinding = client(async () => [{ address: '93.184.215.14' }, { address: '127.0.0.1' }], false);
    await expect(rebinding.fetch(target('rebind.pinned.test'), 'refs/heads/main')).rejects.toThrow(/private or loopback/);
    const unknown = client(async () => [], true);
    await expect(unknown.fetch(target('nowhere.pinned.test'), 'refs/heads/main')).rejects.toThrow(/could not be resolved/);
    expect(http.requests.length).toBe(before);
  });
});
