import type { Readable } from 'node:stream';

/** Keys are URL-safe random strings; anything else is never a stored file (no path tricks). */
export const STORAGE_KEY = /^[A-Za-z0-9_-]{16,128}$/;

/** What the storage keeps next to the bytes, so they can be served without reading a revision. */
export interface StoredFileMetadata {
  name: string;
  contentType: string;
  size: number;
}

export interface StoredFile {
  metadata: StoredFileMetadata;
  /** The bytes, streamed. */
  open(): Readable;
}

/**
 * Where content files live. Keys are chosen by the caller (random, unguessable: the download
 * route is public) and never reused; stored files are immutable, like the revisions naming them.
 * The default implementation is LocalDiskFileStorage (FILES_DIR); an object store can take its place.
 */
export abstract class FileStorage {
  abstract put(key: string, bytes: Uint8Array, metadata: StoredFileMetadata): Promise<void>;
  /** null when nothing is stored under the key. */
  abstract get(key: string): Promise<StoredFile | null>;
  /** Removes the bytes and metadata; removing a missing key does nothing. */
  abstract delete(key: string): Promise<void>;
  /** Every stored key with the time it was written, in batches (for the sweep of unreferenced files). */
  abstract list(): AsyncIterable<StoredKey[]>;
  /** Removes partial writes a crash left behind that are older than `before`; returns how many. */
  abstract removeIncomplete(before: Date): Promise<number>;
}

export interface StoredKey {
  key: string;
  writtenAt: Date;
}
