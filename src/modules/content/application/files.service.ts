import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import { InvalidError, NotFoundError, TooLargeError, Urls, newId } from '@app/common';
import { imageDimensions } from '../domain/image-dimensions';
import { RevisionFile } from '../domain/revision-content';
import { FileBody, FileStorage, STORAGE_KEY, StoredFile } from '../infrastructure/file-storage';

/** `type/subtype` with optional parameters, as in a Content-Type header; no control characters. */
const CONTENT_TYPE = /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}(?:\s*;[\x20-\x7e]*)?$/;
const MAX_NAME_LENGTH = 255;
/** Image headers (PNG, GIF, JPEG with its frame header) are read from the first bytes of a streamed file. */
const HEADER_BYTES = 256 * 1024;
/** Path of the public download route (under the API prefix); see FileDownloadController. */
export const DOWNLOAD_ROUTE = 'files';
/** How long a redirected download's address lives; the redirect itself is cached for less. */
export const DIRECT_DOWNLOAD_SECONDS = 300;

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
   * Stores the bytes (streamed when `body` is a stream) and describes them. `dimensions` are read
   * from PNG, GIF and JPEG headers. With `exactSize`, a stream longer than that stops at once (413)
   * and a shorter one is removed again (400).
   * @throws InvalidError when the name is empty or too long, or the content type is not `type/subtype`.
   */
  async store(body: FileBody, name: string, contentType: string, storageKey = newStorageKey(), exactSize?: number): Promise<RevisionFile> {
    const cleanName = assertFileDescription(name, contentType);
    if (!(body instanceof Readable)) {
      const { size } = await this.storage.put(storageKey, body, { name: cleanName, contentType });
      return this.described(storageKey, cleanName, contentType, size, body, exactSize);
    }
    const header: Buffer[] = [];
    // Pulled by the storage as it writes (nothing flows before it reads); an oversized body stops
    // the write, and the rest of it stays unread for the caller (which may drain it for the 413).
    const watched = Readable.from(
      (async function* () {
        let seen = 0;
        for await (const chunk of body.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
          if (seen < HEADER_BYTES) header.push(chunk.subarray(0, HEADER_BYTES - seen));
          seen += chunk.length;
          if (exactSize !== undefined && seen > exactSize) throw new TooLargeError(`This upload takes ${exactSize} bytes`);
          yield chunk;
        }
      })(),
      { objectMode: false },
    );
    const { size } = await this.storage.put(storageKey, watched, { name: cleanName, contentType });
    return this.described(storageKey, cleanName, contentType, size, Buffer.concat(header), exactSize);
  }

  private async described(storageKey: string, name: string, contentType: string, size: number, head: Uint8Array, exactSize?: number): Promise<RevisionFile> {
    if (exactSize !== undefined && size !== exactSize) {
      await this.storage.delete(storageKey);
      throw new InvalidError(`This upload takes exactly ${exactSize} bytes; ${size} arrived`);
    }
    const dimensions = imageDimensions(head);
    return { id: newId(), name, contentType, size, ...(dimensions ? { dimensions } : {}), storageKey };
  }

  /** What is stored under a key (a direct upload's object, once the client has put it), or null. */
  async stored(storageKey: string): Promise<StoredFile | null> {
    return STORAGE_KEY.test(storageKey) ? this.storage.get(storageKey) : null;
  }

  /** An address the client may PUT a file's bytes to directly (the bucket's, presigned), or null. */
  directUploadUrl(storageKey: string, name: string, contentType: string, seconds: number): Promise<string | null> {
    return this.storage.directUploadUrl(storageKey, { name, contentType }, seconds);
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

  /**
   * A download: the stored file, and where the storage serves it directly when the operator has it
   * do so (a presigned address valid `DIRECT_DOWNLOAD_SECONDS`), else null; 404 when the key names nothing.
   */
  async download(storageKey: string): Promise<{ file: StoredFile; direct: string | null }> {
    const file = await this.open(storageKey);
    return { file, direct: await this.storage.directDownloadUrl(storageKey, file.metadata, DIRECT_DOWNLOAD_SECONDS) };
  }
}
