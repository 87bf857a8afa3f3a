import { createReadStream } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig, newId } from '@app/common';
import { FileStorage, StoredFile, StoredFileMetadata } from './file-storage';

/** Keys are URL-safe random strings; anything else is never a stored file (no path tricks). */
export const STORAGE_KEY = /^[A-Za-z0-9_-]{16,128}$/;

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

  async put(key: string, bytes: Uint8Array, metadata: StoredFileMetadata): Promise<void> {
    const path = this.path(key);
    await mkdir(join(path, '..'), { recursive: true });
    const temp = `${path}.${newId()}.tmp`;
    await writeFile(temp, bytes);
    await rename(temp, path);
    await writeFile(`${temp}.json`, JSON.stringify(metadata));
    await rename(`${temp}.json`, `${path}.json`);
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
    return { metadata, open: () => createReadStream(path) };
  }

  private path(key: string): string {
    if (!STORAGE_KEY.test(key)) throw new Error(`Invalid storage key "${key}"`);
    return join(this.root, key.slice(0, 2), key);
  }
}
