import { createWriteStream } from 'node:fs';
import { join, posix } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Injectable } from '@nestjs/common';
import { FilesService } from '../../content/application/files.service';
import { RevisionFile } from '../../content/domain/revision-content';
import { ImportedAsset } from '../domain/format/repository-import';
import { GitClient, GitRemote } from '../infrastructure/git-client';

const CONTENT_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.svg': 'image/svg+xml',
  '.webp': 'image/webp',
  '.pdf': 'application/pdf',
};

/** Files stored (or read from storage) at once: each is a write to the file storage, which overlaps well. */
const CONCURRENCY = 8;
/** Assets up to this size are read from git a batch at a time, one process for many; larger ones stream alone. */
const SMALL_ASSET_BYTES = 4 * 1024 * 1024;
/** Most bytes of small assets held in memory at once. */
const BATCH_BYTES = 32 * 1024 * 1024;

/**
 * Moves asset bytes between a repository and file storage without holding a repository in
 * memory: small assets a bounded batch at a time (one `cat-file --batch` for many), large ones as
 * a stream each, and on export every asset streamed from storage to disk beside the repository,
 * then written as blobs by one `hash-object` for all.
 */
@Injectable()
export class GitAssets {
  constructor(
    private readonly git: GitClient,
    private readonly files: FilesService,
  ) {}

  /** Stores the assets of an import (skipping those `reuse` returns a stored file for); results in the assets' order. */
  async store(
    target: GitRemote,
    repo: string,
    assets: readonly ImportedAsset[],
    reuse: (asset: ImportedAsset) => RevisionFile | undefined,
    signal?: AbortSignal,
  ): Promise<RevisionFile[]> {
    const results = new Array<RevisionFile>(assets.length);
    const put = async (i: number, body: Uint8Array | Readable) => {
      const asset = assets[i];
      const type = CONTENT_TYPES[posix.extname(asset.name).toLowerCase()] ?? 'application/octet-stream';
      results[i] = { ...(await this.files.store(body, asset.name, type)), id: asset.id };
    };
    const inMemory: number[] = [];
    const small: number[][] = [[]];
    const large: number[] = [];
    let batchBytes = 0;
    assets.forEach((asset, i) => {
      const known = reuse(asset);
      if (known) results[i] = known;
      else if (asset.body instanceof Uint8Array) inMemory.push(i);
      else if (asset.body.size > SMALL_ASSET_BYTES) large.push(i);
      else {
        if (batchBytes + asset.body.size > BATCH_BYTES) {
          small.push([]);
          batchBytes = 0;
        }
        small.at(-1)!.push(i);
        batchBytes += asset.body.size;
      }
    });
    const blobOf = (i: number) => (assets[i].body as { blob: string }).blob;
    await inParallel(inMemory, CONCURRENCY, (i) => put(i, assets[i].body as Uint8Array));
    for (const batch of small) {
      if (batch.length === 0) continue;
      const blobs = await this.git.readBlobs(target, repo, batch.map(blobOf), signal);
      await inParallel(batch, CONCURRENCY, (i) => put(i, blobs.get(blobOf(i))!));
    }
    await inParallel(large, 2, (i) => put(i, this.git.openBlob(repo, blobOf(i), signal)));
    return results;
  }

  /** Writes stored files into the repository as blobs; returns their object ids in order. */
  async writeToRepository(repo: string, files: readonly RevisionFile[], signal?: AbortSignal): Promise<string[]> {
    if (files.length === 0) return [];
    return this.git.withScratch(repo, async (dir) => {
      const paths = files.map((_, i) => join(dir, String(i)));
      await inParallel(paths, CONCURRENCY, async (path, i) => {
        const stored = await this.files.open(files[i].storageKey);
        await pipeline(stored.open(), createWriteStream(path), { signal });
      });
      return this.git.writeBlobs(repo, paths, signal);
    });
  }
}

/** `work` over `items`, at most `limit` at a time; results in the items' order. */
export async function inParallel<T, R>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i], i);
    }
  });
  await Promise.all(lanes);
  return results;
}
