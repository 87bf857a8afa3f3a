import { execFile } from 'node:child_process';
import { lookup } from 'node:dns/promises';
import { mkdir, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { dirname, join, relative } from 'node:path';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@app/common';
import { isPublicAddress } from '../../../core/outbound/address-policy';
import { RemoteUrl, redact } from '../domain/remote-url';

export class GitSyncError extends Error {}

export interface GitRemote {
  remote: RemoteUrl;
  /** Cache key (repoCacheID, else the URL). */
  cacheId: string;
  spaceId: string;
}

/**
 * The `git` command line, on a per-space cache of shallow clones under GIT_SYNC_DIR. Credentials
 * reach git only through the environment (GIT_CONFIG_COUNT/KEY/VALUE: an `http.extraHeader`
 * with basic auth), never the command line or the clone's config; every message is redacted.
 * Remote hosts are resolved and refused when private or loopback (unless OUTBOUND_ALLOW_PRIVATE).
 */
@Injectable()
export class GitClient {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** The checkout of `ref` (refs/heads/x), fetched shallow into the space's cache; null when the branch does not exist. */
  async fetch(target: GitRemote, ref: string, signal?: AbortSignal): Promise<{ dir: string; commit: string | null }> {
    await this.checkHost(target.remote);
    const dir = this.cacheDir(target);
    await mkdir(dir, { recursive: true });
    const git = (args: string[]) => this.git(target, dir, args, signal);
    if (!(await exists(join(dir, '.git')))) await git(['init', '-q']);
    await git(['config', 'remote.origin.url', target.remote.url]);
    const branch = ref.replace(/^refs\/heads\//, '');
    const remoteRef = `refs/remotes/origin/${branch}`;
    try {
      await git(['fetch', '-q', '--depth=50', '--no-tags', 'origin', `+${ref}:${remoteRef}`]);
    } catch (error) {
      if (/couldn't find remote ref|not our ref|no such ref/i.test((error as Error).message)) {
        await git(['checkout', '-q', '--orphan', `sync-${Date.now()}`]).catch(() => undefined);
        await git(['rm', '-rq', '--cached', '--ignore-unmatch', '.']).catch(() => undefined);
        await git(['clean', '-qfdx']);
        return { dir, commit: null };
      }
      throw error;
    }
    await git(['checkout', '-q', '-B', branch, remoteRef]);
    await git(['reset', '-q', '--hard', remoteRef]);
    await git(['clean', '-qfdx']);
    const commit = (await git(['rev-parse', 'HEAD'])).trim();
    return { dir, commit };
  }

  /** Files of the checkout under `directory`, bounded by GIT_SYNC_MAX_FILES and GIT_SYNC_MAX_BYTES. */
  async readTree(dir: string, directory: string): Promise<Map<string, Uint8Array>> {
    const base = join(dir, directory);
    const files = new Map<string, Uint8Array>();
    let bytes = 0;
    const walk = async (at: string) => {
      let entries;
      try {
        entries = await readdir(at, { withFileTypes: true });
      } catch {
        return;
      }
      for (const entry of entries) {
        if (entry.name === '.git') continue;
        const path = join(at, entry.name);
        if (entry.isDirectory()) await walk(path);
        else if (entry.isFile()) {
          if (files.size >= this.config.gitSyncMaxFiles) throw new GitSyncError(`The repository has more than ${this.config.gitSyncMaxFiles} files`);
          const content = await readFile(path);
          bytes += content.length;
          if (bytes > this.config.gitSyncMaxBytes) throw new GitSyncError(`The repository is larger than ${this.config.gitSyncMaxBytes} bytes`);
          files.set(relative(base, path).split('\\').join('/'), content);
        }
      }
    };
    await walk(base);
    return files;
  }

  /** A text file of the checkout, or undefined when it has none. */
  async readText(dir: string, path: string): Promise<string | undefined> {
    try {
      return await readFile(join(dir, path), 'utf8');
    } catch {
      return undefined;
    }
  }

  async writeFile(dir: string, path: string, bytes: Uint8Array | string): Promise<void> {
    const target = join(dir, path);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, bytes);
  }

  async removeFile(dir: string, path: string): Promise<void> {
    await rm(join(dir, path), { force: true });
  }

  /** Commits everything in the checkout; null when nothing changed. */
  async commit(target: GitRemote, dir: string, message: string, author: { name: string; email: string }): Promise<string | null> {
    const git = (args: string[], env: Record<string, string> = {}) => this.git(target, dir, args, undefined, env);
    await git(['add', '-A']);
    const status = await git(['status', '--porcelain']);
    if (!status.trim()) return null;
    const env = { GIT_AUTHOR_NAME: author.name, GIT_AUTHOR_EMAIL: author.email, GIT_COMMITTER_NAME: author.name, GIT_COMMITTER_EMAIL: author.email };
    await git(['commit', '-q', '-m', message], env);
    return (await git(['rev-parse', 'HEAD'])).trim();
  }

  /** Pushes HEAD to `ref`; false when the remote moved (non-fast-forward) and `force` is off. */
  async push(target: GitRemote, dir: string, ref: string, force: boolean): Promise<boolean> {
    try {
      await this.git(target, dir, ['push', '-q', ...(force ? ['--force'] : []), 'origin', `HEAD:${ref}`]);
      return true;
    } catch (error) {
      if (/non-fast-forward|fetch first|rejected/i.test((error as Error).message)) return false;
      throw error;
    }
  }

  /** The bytes of `path` at `commit`, or null (for the merge base of an export). */
  async show(target: GitRemote, dir: string, commit: string, path: string): Promise<string | null> {
    try {
      return await this.git(target, dir, ['show', `${commit}:${path}`]);
    } catch {
      return null;
    }
  }

  private cacheDir(target: GitRemote): string {
    const key = createHash('sha256').update(target.cacheId).digest('hex').slice(0, 24);
    return join(this.config.gitSyncDir, target.spaceId, key);
  }

  private async checkHost(remote: RemoteUrl): Promise<void> {
    if (remote.protocol === 'file' || this.config.outboundAllowPrivate) return;
    let addresses: Array<{ address: string }>;
    try {
      addresses = await lookup(remote.host, { all: true });
    } catch {
      throw new GitSyncError(`The Git host "${remote.host}" could not be resolved`);
    }
    if (addresses.length === 0 || addresses.some((a) => !isPublicAddress(a.address))) {
      throw new GitSyncError(`The Git host "${remote.host}" is a private or loopback address, which this server does not reach`);
    }
  }

  private git(target: GitRemote, cwd: string, args: string[], signal?: AbortSignal, extraEnv: Record<string, string> = {}): Promise<string> {
    const credentials = target.remote.credentials;
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? '/tmp',
      GIT_TERMINAL_PROMPT: '0',
      GIT_ASKPASS: 'true',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_ALLOW_PROTOCOL: this.config.gitAllowedProtocols.join(':'),
      ...extraEnv,
    };
    const config: Array<[string, string]> = [['protocol.allow', 'user'], ['core.hooksPath', '/dev/null']];
    if (credentials) {
      const basic = Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64');
      config.push(['http.extraHeader', `Authorization: Basic ${basic}`]);
    }
    env.GIT_CONFIG_COUNT = String(config.length);
    config.forEach(([key, value], i) => {
      env[`GIT_CONFIG_KEY_${i}`] = key;
      env[`GIT_CONFIG_VALUE_${i}`] = value;
    });
    const secrets = credentials ? [credentials.password, credentials.username, Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')] : [];
    return new Promise((resolve, reject) => {
      execFile('git', args, { cwd, env, signal, timeout: this.config.gitSyncTimeoutMs, maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' }, (error, stdout, stderr) => {
        if (error) {
          const detail = redact(`${stderr || error.message}`.trim().split('\n').slice(-3).join(' '), secrets);
          reject(new GitSyncError(`git ${args[0]} failed: ${detail}`));
        } else resolve(stdout);
      });
    });
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}
