import type { Readable } from 'node:stream';

/** Keys are URL-safe random strings; anything else is never a stored file (no path tricks). */
export const STORAGE_KEY = /^[A-Za-z0-9_-]{16,128}$/;

/** What a writer says about the bytes it stores. */
export interface FileDescription {
  name: string;
  contentType: string;
}

/** What the storage keeps next to the bytes, so they can be served without reading a revision. */
export interface StoredFileMetadata extends FileDescription {
  size: number;
}

/** Bytes `start` to `end`, both included (an HTTP `Range: bytes=start-end`). */
export interface ByteRange {
  start: number;
  end: number;
}

export interface StoredFile {
  metadata: StoredFileMetadata;
  /** The bytes (or the range of them), streamed. */
  open(range?: ByteRange): Readable;
}

/** The bytes to store: a stream (never held whole in memory) or bytes already in memory. */
export type FileBody = Readable | Uint8Array;

/**
 * Where content files live. Keys are chosen by the caller (random, unguessable: the download
 * route is public) and never reused; stored files are immutable, like the revisions naming them,
 * so writing a key again writes the same file (retries are harmless).
 * Implementations: LocalDiskFileStorage (FILES_DIR, the default) and S3FileStorage (FILES_BACKEND=s3).
 */
export abstract class FileStorage {
  /** Streams `body` under `key`; readers never see a partial file. Returns the size written. */
  abstract put(key: string, body: FileBody, description: FileDescription): Promise<{ size: number }>;
  /** null when nothing is stored under the key. */
  abstract get(key: string): Promise<StoredFile | null>;
  /** Removes the bytes and metadata; removing a missing key does nothing. */
  abstract delete(key: string): Promise<void>;
  /** Every stored key with the time it was written, in batches (for the sweep of unreferenced files). */
  abstract list(): AsyncIterable<StoredKey[]>;
  /** Removes partial writes a crash left behind that are older than `before`; returns how many. */
  abstract removeIncomplete(before: Date): Promise<number>;
  /**
   * An address a client may PUT the bytes of `key` to directly, valid `seconds` (an object store's
   * presigned address); null when this storage takes uploads only through our own upload route.
   */
  async directUploadUrl(_key: string, _description: FileDescription, _seconds: number): Promise<string | null> {
    return null;
  }
  /**
   * An address serving the bytes of `key` directly, valid `seconds`, for a download to redirect to
   * (an object store's presigned GET, when the operator chose it); null: our route streams them.
   */
  async directDownloadUrl(_key: string, _metadata: StoredFileMetadata, _seconds: number): Promise<string | null> {
    return null;
  }
}

export interface StoredKey {
  key: string;
  writtenAt: Date;
}
