import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { loadConfig } from '@app/common';
import { GitClient, GitRemote } from '../src/modules/git-sync/infrastructure/git-client';
import { GitAssets } from '../src/modules/git-sync/application/git-assets';
import { FilesService } from '../src/modules/content/application/files.service';
import { ImportedAsset } from '../src/modules/git-sync/domain/format/repository-import';
import { blobId } from '../src/modules/git-sync/domain/export-changes';
import { parseRemoteUrl } from '../src/modules/git-sync/domain/remote-url';
import { bareRepository, git } from './support/git-repo';

const MB = 1024 * 1024;

/**
 * Git Sync moves assets between a repository and file storage without holding a repository in
 * memory: `openBlob` hands a blob's bytes over as git writes them, small assets are read in bounded
 * batches, and an export writes stored files into the repository from disk (`writeBlobs`).
 */
describe('Git Sync: blobs stream in and out of the repository', () => {
  let tmp: string;
  let gitClient: GitClient;
  let repo: string;
  let bigOid: string;
  let target: GitRemote;
  const big = randomBytes(24 * MB);

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'git-sync-streams-'));
    const fixture = join(tmp, 'fixture');
    mkdirSync(join(fixture, '.gitbook', 'assets'), { recursive: true });
    writeFileSync(join(fixture, 'README.md'), '# Home\n');
    writeFileSync(join(fixture, '.gitbook', 'assets', 'big.bin'), big);
    const { url, work } = bareRepository(tmp, fixture);
    bigOid = git(work, 'rev-parse', 'HEAD:.gitbook/assets/big.bin').trim();
    gitClient = new GitClient(loadConfig({ GIT_SYNC_DIR: join(tmp, 'cache'), GIT_ALLOWED_PROTOCOLS: 'file' }));
    target = { remote: parseRemoteUrl(url, ['file']), cacheId: 'streams', spaceId: 'space' };
    ({ repo } = await gitClient.fetch(target, 'refs/heads/main'));
  });
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('reads a blob as a stream of chunks, byte for byte', async () => {
    const hash = createHash('sha256');
    let chunks = 0;
    let largest = 0;
    let size = 0;
    for await (const chunk of gitClient.openBlob(repo, bigOid) as AsyncIterable<Buffer>) {
      hash.update(chunk);
      chunks++;
      size += chunk.length;
      largest = Math.max(largest, chunk.length);
    }
    expect(size).toBe(big.length);
    expect(hash.digest('hex')).toBe(createHash('sha256').update(big).digest('hex'));
    // Many pipe-sized pieces, never the file at once.
    expect(chunks).toBeGreaterThan(100);
    expect(largest).toBeLessThanOrEqual(MB);
  });

  it('fails the stream for an object the repository does not hold, and refuses what is not an object id', async () => {
    const missing = gitClient.openBlob(repo, '0'.repeat(40));
    await expect((async () => {
      for await (const _ of missing) void _;
    })()).rejects.toThrow(/git cat-file 0{40} failed/);
    expect(() => gitClient.openBlob(repo, 'HEAD:README.md')).toThrow(/Not a git object id/);
  });

  it('writes files into the repository as blobs with one git process, ids as git gives them, and cleans its scratch space', async () => {
    let scratch = '';
    const oids = await gitClient.withScratch(repo, async (dir) => {
      scratch = dir;
      writeFileSync(join(dir, '0'), 'first\n');
      writeFileSync(join(dir, '1'), big);
      return gitClient.writeBlobs(repo, [join(dir, '0'), join(dir, '1')]);
    });
    expect(oids).toEqual([blobId(Buffer.from('first\n')), bigOid]);
    expect(git(repo, 'cat-file', '-t', oids[0]).trim()).toBe('blob');
    expect(existsSync(scratch)).toBe(false);
    await expect(gitClient.withScratch(repo, async (dir) => ((scratch = dir), Promise.reject(new Error('failed inside'))))).rejects.toThrow('failed inside');
    expect(existsSync(scratch)).toBe(false);
  });

  it('stores small assets from a batch read and a large one as a stream, each byte for byte', async () => {
    const received = new Map<string, { streamed: boolean; sha: string }>();
    const files = {
      store: async (body: Uint8Array | Readable, name: string, contentType: string) => {
        const hash = createHash('sha256');
        if (body instanceof Readable) for await (const chunk of body) hash.update(chunk);
        else hash.update(body);
        received.set(name, { streamed: body instanceof Readable, sha: hash.digest('hex') });
        return { id: 'x', name, contentType, size: 0, storageKey: name };
      },
    } as unknown as FilesService;
    const assets = new GitAssets(gitClient, files);
    const smallOid = git(repo, 'rev-parse', 'refs/sync/target:README.md').trim();
    const imported: ImportedAsset[] = [
      { id: 'big', path: '.gitbook/assets/big.bin', name: 'big.bin', digest: bigOid, body: { blob: bigOid, size: big.length } },
      { id: 'small', path: '.gitbook/assets/readme.md', name: 'readme.md', digest: smallOid, body: { blob: smallOid, size: 7 } },
      { id: 'known', path: '.gitbook/assets/known.png', name: 'known.png', digest: 'k', body: { blob: smallOid, size: 7 } },
    ];
    const known = { id: 'known', name: 'known.png', contentType: 'image/png', size: 7, storageKey: 'kept' };
    const stored = await assets.store(target, repo, imported, (asset) => (asset.id === 'known' ? known : undefined));
    expect(stored.map((f) => f.id)).toEqual(['big', 'small', 'known']);
    expect(stored[2]).toBe(known);
    expect(received.get('big.bin')).toEqual({ streamed: true, sha: createHash('sha256').update(big).digest('hex') });
    expect(received.get('readme.md')).toEqual({ streamed: false, sha: createHash('sha256').update('# Home\n').digest('hex') });
    expect(received.has('known.png')).toBe(false);
  });
});
