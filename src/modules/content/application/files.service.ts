import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InvalidError, NotFoundError, Urls, newId } from '@app/common';
import { imageDimensions } from '../domain/image-dimensions';
import { RevisionFile } from '../domain/revision-content';
import { FileStorage, STORAGE_KEY, StoredFile } from '../infrastructure/file-storage';

/** `type/subtype` with optional parameters, as in a Content-Type header; no control characters. */
const CONTENT_TYPE = /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}(?:\s*;[\x20-\x7e]*)?$/;
const MAX_NAME_LENGTH = 255;
/** Path of the public download route (under the API prefix); see FileDownloadController. */
export const DOWNLOAD_ROUTE = 'files';

/** A new storage key: 256 random bits, the only secret behind a file's public download address. */
export function newStorageKey(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * A file's name (trimmed) and content type as stored: 1 to 255 characters without slashes or
 * control characters, and `type/subtype`.
 * @throws InvalidError naming what is wrong.
 */
export function assertFileDescription(name: string, contentType: string): string {
  const cleanName = name.trim();
  if (!cleanName || cleanName.length > MAX_NAME_LENGTH || /[\x00-\x1f\x7f/\\]/.test(cleanName)) {
    throw new InvalidError(`Invalid file name "${name.slice(0, 80)}": 1 to ${MAX_NAME_LENGTH} characters, no slashes or control characters`);
  }
  if (!CONTENT_TYPE.test(contentType)) {
    throw new InvalidError(`Invalid content type "${contentType.slice(0, 80)}": expected "type/subtype"`);
  }
  return cleanName;
}

/**
 * Content files: bytes go to the FileStorage under a random 256-bit key, and the returned
 * RevisionFile (id, name, contentType, size, image dimensions, storage key) is what a revision
 * stores. The key is the only secret protecting the public download URL, so it is never derived
 * from ids, names or content.
 */
@Injectable()
export class FilesService {
  constructor(
    private readonly storage: FileStorage,
    private readonly urls: Urls,
  ) {}

  /**
   * Stores the bytes and describes them. `dimensions` are read from PNG, GIF and JPEG headers.
   * @throws InvalidError when the name is empty or too long, or the content type is not `type/subtype`.
   */
  async store(bytes: Uint8Array, name: string, contentType: string, storageKey = newStorageKey()): Promise<RevisionFile> {
    const cleanName = assertFileDescription(name, contentType);
    await this.storage.put(storageKey, bytes, { name: cleanName, contentType, size: bytes.byteLength });
    const dimensions = imageDimensions(bytes);
    return {
      id: newId(),
      name: cleanName,
      contentType,
      size: bytes.byteLength,
      ...(dimensions ? { dimensions } : {}),
      storageKey,
    };
  }

  /** The public address serving the file's bytes. */
  downloadUrl(file: Pick<RevisionFile, 'storageKey'>): string {
    return this.urls.api(`/${DOWNLOAD_ROUTE}/${file.storageKey}`);
  }

  /** Whether an address is one of our download addresses (the only font or file addresses reader pages load). */
  isDownloadUrl(url: string): boolean {
    const prefix = this.urls.api(`/${DOWNLOAD_ROUTE}/`);
    return url.startsWith(prefix) && STORAGE_KEY.test(url.slice(prefix.length));
  }

  /** The stored bytes behind a download URL; 404 when the key names nothing. */
  async open(storageKey: string): Promise<StoredFile> {
    const stored = await this.storage.get(storageKey);
    if (!stored) throw NotFoundError.of('File');
    return stored;
  }
}
