import { execFile, spawn } from 'node:child_process';
import { lookup } from 'node:dns/promises';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { isIP } from 'node:net';
import { PassThrough, Readable } from 'node:stream';
import { join } from 'node:path';
import { Inject, Injectable, Optional } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@app/common';
import { isPublicAddress } from '../../../core/outbound/address-policy';
import { RemoteUrl, isPlainHost, redact, secretsOf } from '../domain/remote-url';
import { TreeChange, TreeEntry } from '../domain/repository-tree';
import { Pin, gitEnvironment } from './git-environment';

export class GitSyncError extends Error {
  /** True when another try cannot succeed (the job fails once). */
  constructor(
    message: string,
    readonly permanent = false,
  ) {
    super(message);
  }
}

export interface GitRemote {
  remote: RemoteUrl;
  /** Cache key (repoCacheID, else the URL); the cache also belongs to one space. */
  cacheId: string;
  spaceId: string;
}

/**
 * Git on objects only: a bare repository per space and remote under GIT_SYNC_DIR, fetched
 * shallow, read with `ls-tree` and `cat-file --batch`, written with `fast-import` and pushed. No
 * working tree exists, so nothing a repository holds (symlinks, attributes, hooks, its config)
 * ever reaches the host's file system or runs. Git runs with a minimal environment: no system or
 * global config, only the allowed protocols, no redirects, the host pinned to the address that
 * was checked, hooks off. The remote's address and secrets reach git only through its
 * environment (never the command line or a config file), and every message is redacted.
 */
/** Resolves a host name to its addresses (the system resolver; tests give their own). */
export type HostResolver = (host: string) => Promise<Array<{ address: string }>>;
export const GIT_HOST_RESOLVER = Symbol('GIT_HOST_RESOLVER');
const systemResolver: HostResolver = (host) => lookup(host, { all: true });

@Injectable()
export class GitClient {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Optional() @Inject(GIT_HOST_RESOLVER) private readonly resolve: HostResolver = systemResolver,
  ) {}

  /**
   * Fetches `ref` (depth 1) into the space's bare cache. When the ref does not exist, `commit` is
   * null and, with `orDefault`, `base` is the commit of the repository's default branch (null for
   * an empty repository): a new branch starts from it.
   */
  async fetch(target: GitRemote, ref: string, options: { signal?: AbortSignal; orDefault?: boolean } = {}): Promise<{ repo: string; commit: string | null; base: string | null }> {
    const pin = await this.pinHost(target.remote);
    const repo = this.cacheDir(target);
    if (!(await exists(join(repo, 'HEAD')))) {
      await mkdir(repo, { recursive: true });
      await this.run(target, repo, ['init', '-q', '--bare', '--template='], pin);
    }
    const fetchRef = async (source: string, local: string): Promise<string | null> => {
      try {
        await this.run(target, repo, ['fetch', '-q', '--depth=1', '--no-tags', '--no-write-fetch-head', '--no-recurse-submodules', 'origin', `+${source}:${local}`], pin, options.signal);
      } catch (error) {
        if (/couldn't find remote ref|not our ref|no such ref|unknown revision/i.test((error as Error).message)) return null;
        throw error;
      }
      return (await this.run(target, repo, ['rev-parse', '--verify', '-q', `${local}^{commit}`], pin)).trim();
    };
    const commit = await fetchRef(ref, 'refs/sync/target');
    await this.checkPackSize(target, repo);
    const base = commit === null && options.orDefault ? await fetchRef('HEAD', 'refs/sync/default') : null;
    return { repo, commit, base };
  }

  /** Every entry of `commit`'s tree (recursive, with blob sizes), bounded by GIT_SYNC_MAX_FILES. */
  async listTree(target: GitRemote, repo: string, commit: string): Promise<TreeEntry[]> {
    const entries: TreeEntry[] = [];
    const max = this.config.gitSyncMaxFiles;
    await this.stream(target, repo, ['ls-tree', '-r', '-l', '-z', '--full-tree', commit], undefined, (records, stop) => {
      for (const record of records) {
        const tab = record.indexOf('\t');
        const [mode, , oid, size] = record.slice(0, tab).split(/ +/);
        entries.push({ mode, oid, size: size === '-' ? 0 : Number(size), path: record.slice(tab + 1) });
        if (entries.length > max) return stop(new GitSyncError(`The repository has more than ${max} files, more than this server reads (GIT_SYNC_MAX_FILES)`, true));
      }
    });
    return entries;
  }

  /** The bytes of each blob (by object id), read in one `cat-file --batch`. */
  async readBlobs(target: GitRemote, repo: string, oids: readonly string[], signal?: AbortSignal): Promise<Map<string, Buffer>> {
    const out = new Map<string, Buffer>();
    const wanted = [...new Set(oids)];
    if (wanted.length === 0) return out;
    const child = spawn('git', ['cat-file', '--batch'], { cwd: repo, env: gitEnvironment(this.config.gitAllowedProtocols), stdio: ['pipe', 'pipe', 'pipe'], signal });
    let index = 0;
    const done = new Promise<void>((resolve, reject) => {
      child.on('error', (error) => reject(new GitSyncError(`git cat-file failed: ${error.message}`)));
      child.on('close', (code) => (code === 0 && index === wanted.length ? resolve() : reject(new GitSyncError(`git cat-file stopped after ${index} of ${wanted.length} objects`))));
    });
    // Header line, then `size` bytes and a newline: body chunks are collected, never re-concatenated per chunk.
    let pending: Buffer = Buffer.alloc(0);
    let current: { oid: string; size: number; chunks: Buffer[]; have: number } | null = null;
    child.stdout.on('data', (chunk: Buffer) => {
      let data: Buffer = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      pending = Buffer.alloc(0);
      while (data.length > 0) {
        if (!current) {
          const newline = data.indexOf(10);
          if (newline < 0) {
            pending = data;
            return;
          }
          const [oid, type, size] = data.subarray(0, newline).toString('latin1').split(' ');
          data = data.subarray(newline + 1);
          if (type === 'missing') {
            child.kill();
            return;
          }
          current = { oid, size: Number(size) + 1, chunks: [], have: 0 };
          continue;
        }
        const take = Math.min(current.size - current.have, data.length);
        current.chunks.push(data.subarray(0, take));
        current.have += take;
        data = data.subarray(take);
        if (current.have === current.size) {
          out.set(current.oid, Buffer.concat(current.chunks).subarray(0, current.size - 1));
          current = null;
          index++;
        }
      }
    });
    child.stderr.resume();
    child.stdin.on('error', () => undefined);
    child.stdin.end(wanted.join('\n') + '\n');
    await done;
    return out;
  }

  /**
   * One blob's bytes as a stream (`git cat-file blob`), for assets that go straight into file
   * storage: a repository's files are never whole in memory. The stream fails when git does.
   */
  openBlob(repo: string, oid: string, signal?: AbortSignal): Readable {
    if (!OBJECT_ID.test(oid)) throw new GitSyncError(`Not a git object id: ${oid.slice(0, 80)}`);
    const child = spawn('git', ['cat-file', 'blob', oid], { cwd: repo, env: gitEnvironment(this.config.gitAllowedProtocols), stdio: ['ignore', 'pipe', 'pipe'], signal });
    const out = new PassThrough();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-500)));
    child.stdout.pipe(out, { end: false });
    child.on('error', (error) => out.destroy(new GitSyncError(`git cat-file failed: ${error.message}`)));
    child.on('close', (code) => (code === 0 ? out.end() : out.destroy(new GitSyncError(`git cat-file ${oid} failed: ${stderr.trim() || `exit ${code}`}`))));
    // A reader that stops early (an aborted store) stops git too.
    out.on('close', () => child.exitCode === null && child.kill());
    return out;
  }

  /**
   * Writes files (by path on this host, made by us) into the repository as blobs, one
   * `git hash-object -w --stdin-paths` for all of them; returns their object ids in order.
   */
  async writeBlobs(repo: string, paths: readonly string[], signal?: AbortSignal): Promise<string[]> {
    if (paths.length === 0) return [];
    const child = spawn('git', ['hash-object', '-w', '--no-filters', '--stdin-paths'], { cwd: repo, env: gitEnvironment(this.config.gitAllowedProtocols), stdio: ['pipe', 'pipe', 'pipe'], signal });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-500)));
    child.stdin.on('error', () => undefined);
    child.stdin.end(paths.join('\n') + '\n');
    const code = await new Promise<number | null>((resolve, reject) => {
      child.on('error', (error) => reject(new GitSyncError(`git hash-object failed: ${error.message}`)));
      child.on('close', resolve);
    });
    const oids = stdout.split('\n').filter(Boolean);
    if (code !== 0 || oids.length !== paths.length || !oids.every((oid) => OBJECT_ID.test(oid))) {
      throw new GitSyncError(`git hash-object failed: ${stderr.trim() || `exit ${code}`}`);
    }
    return oids;
  }

  /** Runs `work` with an empty directory beside the repository's cache (on its disk), removed afterwards. */
  async withScratch<T>(repo: string, work: (dir: string) => Promise<T>): Promise<T> {
    const dir = await mkdtemp(`${repo}.scratch-`);
    try {
      return await work(dir);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  /** A commit of `changes` on top of `parent` (or a root commit), written as objects by fast-import. */
  async writeCommit(
    target: GitRemote,
    repo: string,
    input: { parent: string | null; changes: readonly TreeChange[]; message: string; author: { name: string; email: string }; at: Date },
  ): Promise<string> {
    const ident = `${identPart(input.author.name) || 'Docs platform'} <${identPart(input.author.email)}> ${Math.floor(input.at.getTime() / 1000)} +0000`;
    const message = Buffer.from(input.message, 'utf8');
    const chunks: Buffer[] = [
      Buffer.from(`commit refs/sync/export\nauthor ${ident}\ncommitter ${ident}\ndata ${message.length}\n`),
      message,
      Buffer.from(`\n${input.parent ? `from ${input.parent}\n` : ''}`),
    ];
    for (const change of input.changes) {
      if ('remove' in change) chunks.push(Buffer.from(`D ${quotePath(change.path)}\n`));
      else if ('oid' in change) chunks.push(Buffer.from(`M ${change.mode} ${change.oid} ${quotePath(change.path)}\n`));
      else chunks.push(Buffer.from(`M ${change.mode} inline ${quotePath(change.path)}\ndata ${change.bytes.length}\n`), Buffer.from(change.bytes), Buffer.from('\n'));
    }
    chunks.push(Buffer.from('done\n'));
    // The ref is ours: start from nothing so an earlier, unpushed export never becomes a parent.
    await this.run(target, repo, ['update-ref', '-d', 'refs/sync/export'], null).catch(() => undefined);
    await this.run(target, repo, ['fast-import', '--quiet', '--done', '--force'], null, undefined, Buffer.concat(chunks));
    return (await this.run(target, repo, ['rev-parse', '--verify', 'refs/sync/export^{commit}'], null)).trim();
  }

  /** Pushes `commit` to `ref`; false when the remote moved (non-fast-forward) and `force` is off. */
  async push(target: GitRemote, repo: string, commit: string, ref: string, force: boolean): Promise<boolean> {
    const pin = await this.pinHost(target.remote);
    try {
      await this.run(target, repo, ['push', '-q', '--no-recurse-submodules', 'origin', `${force ? '+' : ''}${commit}:${ref}`], pin);
      return true;
    } catch (error) {
      if (/non-fast-forward|fetch first|rejected/i.test((error as Error).message)) return false;
      throw error;
    }
  }

  /** Removes the space's cache of this remote (after a failure that another try cannot fix). */
  async discard(target: GitRemote): Promise<void> {
    await rm(this.cacheDir(target), { recursive: true, force: true });
  }

  // ------------------------------------------------------------------------------------------

  private cacheDir(target: GitRemote): string {
    const key = createHash('sha256').update(`${target.cacheId}\n${target.remote.url}`).digest('hex').slice(0, 24);
    return join(this.config.gitSyncDir, target.spaceId, key);
  }

  /** The pack fetched is compressed: larger than the byte limit, the content is too. */
  private async checkPackSize(target: GitRemote, repo: string): Promise<void> {
    const counts = await this.run(target, repo, ['count-objects', '-v'], null);
    const kib = Number(/size-pack: (\d+)/.exec(counts)?.[1] ?? 0) + Number(/^size: (\d+)/m.exec(counts)?.[1] ?? 0);
    if (kib * 1024 > this.config.gitSyncMaxBytes) {
      throw new GitSyncError(`The repository holds more than the ${this.config.gitSyncMaxBytes} bytes this server reads (GIT_SYNC_MAX_BYTES)`, true);
    }
  }

  /**
   * Resolves the remote's host once, refuses private and loopback addresses (unless
   * OUTBOUND_ALLOW_PRIVATE), and returns git settings that make git connect to that address and
   * no other (curl's resolve list over http(s), ssh's HostName with the name kept for host keys).
   */
  private async pinHost(remote: RemoteUrl): Promise<Pin | null> {
    if (remote.protocol === 'file') return null;
    let address: string;
    if (isIP(remote.host)) address = remote.host;
    else {
      let addresses: Array<{ address: string }>;
      try {
        addresses = await this.resolve(remote.host);
      } catch {
        throw new GitSyncError(`The Git host "${remote.host}" could not be resolved`);
      }
      if (addresses.length === 0) throw new GitSyncError(`The Git host "${remote.host}" could not be resolved`);
      if (!this.config.outboundAllowPrivate && addresses.some((a) => !isPublicAddress(a.address))) {
        throw new GitSyncError(`The Git host "${remote.host}" is a private or loopback address, which this server does not reach`, true);
      }
      address = addresses[0].address;
    }
    if (!this.config.outboundAllowPrivate && !isPublicAddress(address)) {
      throw new GitSyncError(`The Git host "${remote.host}" is a private or loopback address, which this server does not reach`, true);
    }
    if (remote.protocol === 'ssh') {
      if (!isPlainHost(remote.host) || !isIP(address)) throw new GitSyncError('The Git host must be a domain name or an IP address', true);
    }
    if (remote.protocol === 'ssh') return { env: { GIT_SSH_COMMAND: `ssh -o BatchMode=yes -o HostName=${address} -o HostKeyAlias=${remote.host}` }, config: [] };
    if (isIP(remote.host)) return { env: {}, config: [] };
    const port = remote.port ?? (remote.protocol === 'http' ? 80 : 443);
    return { env: {}, config: [['http.curloptResolve', `${remote.host}:${port}:${isIP(address) === 6 ? `[${address}]` : address}`]] };
  }

  private run(target: GitRemote, cwd: string, args: string[], pin: Pin | null, signal?: AbortSignal, input?: Buffer): Promise<string> {
    const secrets = secretsOf(target.remote);
    return new Promise((resolve, reject) => {
      const child = execFile(
        'git',
        args,
        { cwd, env: gitEnvironment(this.config.gitAllowedProtocols, target, pin), signal, timeout: this.config.gitSyncTimeoutMs, maxBuffer: 16 * 1024 * 1024, encoding: 'utf8' },
        (error, stdout, stderr) => {
          if (error) {
            const detail = redact(`${stderr || error.message}`.trim().split('\n').slice(-3).join(' '), secrets);
            reject(new GitSyncError(`git ${args[0]} failed: ${detail}`));
          } else resolve(stdout);
        },
      );
      if (input) {
        child.stdin!.on('error', () => undefined);
        child.stdin!.end(input);
      }
    });
  }

  /** Runs git and hands its NUL-separated output over as it comes; `stop` ends the run with an error. */
  private stream(target: GitRemote, cwd: string, args: string[], signal: AbortSignal | undefined, onRecords: (records: string[], stop: (error: Error) => void) => void): Promise<void> {
    const secrets = secretsOf(target.remote);
    return new Promise((resolve, reject) => {
      const child = spawn('git', args, { cwd, env: gitEnvironment(this.config.gitAllowedProtocols, target, null), signal, stdio: ['ignore', 'pipe', 'pipe'] });
      let failure: Error | null = null;
      let rest = '';
      let stderr = '';
      const stop = (error: Error) => {
        failure ??= error;
        child.kill();
      };
      child.stdout.setEncoding('utf8');
      child.stdout.on('data', (chunk: string) => {
        if (failure) return;
        const parts = (rest + chunk).split('\0');
        rest = parts.pop()!;
        onRecords(parts, stop);
      });
      child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
      child.on('error', (error) => reject(new GitSyncError(`git ${args[0]} failed: ${redact(error.message, secrets)}`)));
      child.on('close', (code) => {
        if (failure) reject(failure);
        else if (code !== 0) reject(new GitSyncError(`git ${args[0]} failed: ${redact(stderr.trim().split('\n').slice(-3).join(' '), secrets)}`));
        else resolve();
      });
    });
  }
}

const OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;


/** A name or email as git's ident allows: no angle brackets or line breaks. */
function identPart(value: string): string {
  return value.replace(/[<>\n\r\0]/g, '').trim();
}

/** fast-import's C-style quoted path (paths are checked safe before, so only `"` and `\` need escaping). */
function quotePath(path: string): string {
  return `"${path.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}
