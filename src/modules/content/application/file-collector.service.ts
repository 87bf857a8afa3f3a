import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@app/common';
import { Tx } from '../../../database/transactions';
import { FileStorage } from '../infrastructure/file-storage';
import { FileReferences } from './file-references';
import { RevisionsRepository } from '../infrastructure/revisions.repository';

export interface SweepResult {
  /** Partial writes removed. */
  incomplete: number;
  /** Stored files no revision names any more, removed. */
  unreferenced: number;
}

/**
 * Removes the bytes of content files no revision names (nor anything registered with FileReferences, such as custom fonts). Revisions are immutable and only go
 * away with their space (purge), so a stored file becomes garbage only then, or when a crash
 * left bytes whose revision was never committed. Files are shared by key between spaces
 * (duplicating a space copies references), so a key is deleted only when no revision of any
 * space still names it.
 *
 * A commit writes the bytes first and the revision naming them afterwards, so the sweep only
 * touches files older than FILES_SWEEP_GRACE_MS: a file being committed right now is younger.
 * File ages come from the file system, so they are measured against the system clock.
 */
@Injectable()
export class FileCollector {
  private readonly logger = new Logger(FileCollector.name);

  constructor(
    private readonly revisions: RevisionsRepository,
    private readonly storage: FileStorage,
    private readonly references: FileReferences,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The storage keys the revisions of these spaces name; read in the purge's transaction, before the rows go. */
  storageKeysOfSpaces(spaceIds: string[], tx?: Tx): Promise<string[]> {
    return this.revisions.storageKeysOfSpaces(spaceIds, tx);
  }

  /**
   * Deletes the bytes behind each key no revision names any more (after the revisions naming
   * them were removed and committed). Returns how many were deleted. Idempotent.
   */
  async release(keys: string[]): Promise<number> {
    const referenced = await this.revisions.referencedStorageKeys(keys);
    const elsewhere = await this.references.referenced(keys.filter((key) => !referenced.has(key)));
    const garbage = keys.filter((key) => !referenced.has(key) && !elsewhere.has(key));
    for (const key of garbage) await this.storage.delete(key);
    return garbage.length;
  }

  /** The repeatable sweep: partial writes and unreferenced files older than the grace period. */
  async sweep(): Promise<SweepResult> {
    const before = new Date(Date.now() - this.config.filesSweepGraceMs);
    const incomplete = await this.storage.removeIncomplete(before);
    let unreferenced = 0;
    for await (const batch of this.storage.list()) {
      const old = batch.filter((stored) => stored.writtenAt < before).map((stored) => stored.key);
      if (old.length > 0) unreferenced += await this.release(old);
    }
    if (incomplete + unreferenced > 0) this.logger.log(`File sweep removed ${incomplete} partial write(s) and ${unreferenced} unreferenced file(s)`);
    return { incomplete, unreferenced };
  }
}
