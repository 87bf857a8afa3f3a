import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig, newId } from '@app/common';
import { ByteRange, FileBody, FileDescription, FileStorage, STORAGE_KEY, StoredFile, StoredFileMetadata, StoredKey } from './file-storage';

/** Names `put` writes before renaming: `<key>.<id>.tmp` (bytes) and `<key>.<id>.tmp.json` (metadata). */
const TEMPORARY = /\.tmp(?:\.json)?$/;
/** A stored file's bytes (`<key>`) or metadata (`<key>.json`). */
const STORED = /^([A-Za-z0-9_-]{16,128})(?:\.json)?$/;
/** Shard directories: the first two characters of keys. */
const SHARD = /^[A-Za-z0-9_-]{2}$/;

/**
 * Files on the local disk under FILES_DIR: `<dir>/<first two key chars>/<key>` holds the bytes
 * and `<key>.json` the metadata. Both are written to a temporary name and renamed, so a reader
 * never sees a half-written file.
 */
@Injectable()
export class LocalDiskFileStorage extends FileStorage {
  private readonly root: string;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    super();
    this.root = resolve(config.filesDir);
  }

  async put(key: string, body: FileBody, description: FileDescription): Promise<{ size: number }> {
    const path = this.path(key);
    await mkdir(join(path, '..'), { recursive: true });
    const temp = `${path}.${newId()}.tmp`;
    let size = 0;
    try {
      if (body instanceof Readable) {
        await pipeline(body, async function* (chunks: AsyncIterable<Buffer>) {
          for await (const chunk of chunks) {
            size += chunk.length;
            yield chunk;
          }
        }, createWriteStream(temp));
      } else {
        await writeFile(temp, body);
        size = body.byteLength;
      }
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
    await rename(temp, path);
    const metadata: StoredFileMetadata = { name: description.name, contentType: description.contentType, size };
    await writeFile(`${temp}.json`, JSON.stringify(metadata));
    await rename(`${temp}.json`, `${path}.json`);
    return { size };
  }

  async get(key: string): Promise<StoredFile | null> {
    if (!STORAGE_KEY.test(key)) return null;
    const path = this.path(key);
    let metadata: StoredFileMetadata;
    try {
      metadata = JSON.parse(await readFile(`${path}.json`, 'utf8')) as StoredFileMetadata;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    return { metadata, open: (range?: ByteRange) => createReadStream(path, range) };
  }

  async delete(key: string): Promise<void> {
    const path = this.path(key);
    // Metadata first: without it the key already reads as missing (404), even if removing the bytes fails.
    await rm(`${path}.json`, { force: true });
    await rm(path, { force: true });
  }

  async *list(): AsyncIterable<StoredKey[]> {
    for (const shard of await this.shards()) {
      const dir = join(this.root, shard);
      const written = new Map<string, Date>();
      for (const name of await readdirIfPresent(dir)) {
        const match = STORED.exec(name);
        if (!match) continue;
        const at = await mtime(join(dir, name));
        const known = written.get(match[1]);
        if (at && (!known || at > known)) written.set(match[1], at);
      }
      if (written.size > 0) yield [...written].map(([key, writtenAt]) => ({ key, writtenAt }));
    }
  }

  async removeIncomplete(before: Date): Promise<number> {
    let removed = 0;
    for (const shard of await this.shards()) {
      const dir = join(this.root, shard);
      for (const name of await readdirIfPresent(dir)) {
        if (!TEMPORARY.test(name)) continue;
        const at = await mtime(join(dir, name));
        if (!at || at >= before) continue;
        await rm(join(dir, name), { force: true });
        removed++;
      }
    }
    return removed;
  }

  private async shards(): Promise<string[]> {
    return (await readdirIfPresent(this.root)).filter((name) => SHARD.test(name)).sort();
  }

  private path(key: string): string {
    if (!STORAGE_KEY.test(key)) throw new Error(`Invalid storage key "${key}"`);
    return join(this.root, key.slice(0, 2), key);
  }
}

async function readdirIfPresent(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/** When the file was last written; null when it vanished meanwhile (another sweep, a delete). */
async function mtime(path: string): Promise<Date | null> {
  try {
    return (await stat(path)).mtime;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
