import { createHash } from 'node:crypto';
import { SkippedEntry, TreeChange, TreeEntry, blockedPaths } from './repository-tree';

/** What a commit holds at a path: bytes, a blob already in the repository, or the parent's file kept. */
export type CommitFile = Uint8Array | { oid: string } | 'keep';

/**
 * What an export changes in the tree it builds on: files whose bytes differ from the parent's
 * (compared by git object id, so an unchanged file is never rewritten), removals of files the last
 * sync wrote that the space no longer holds, and nothing else: every other file of the branch
 * stays as it is. Paths through a symlink or submodule of the parent are skipped and reported.
 */
export function exportChanges(input: {
  parent: readonly TreeEntry[];
  /**
   * Repository path -> bytes to hold, the id of a blob already written (large files go into the
   * repository as a stream), or `keep` when the caller knows it is unchanged.
   */
  files: ReadonlyMap<string, CommitFile>;
  /** Repository paths the last sync read or wrote. */
  previous: readonly string[];
}): { changes: TreeChange[]; skipped: SkippedEntry[] } {
  const byPath = new Map(input.parent.map((entry) => [entry.path, entry]));
  const blocked = blockedPaths(input.parent);
  const changes: TreeChange[] = [];
  const skipped: SkippedEntry[] = [];
  for (const [path, file] of input.files) {
    const reason = blocked(path);
    if (reason) {
      skipped.push({ path, reason });
      continue;
    }
    if (file === 'keep') continue;
    const existing = byPath.get(path);
    const mode = existing?.mode === '100755' ? '100755' : '100644';
    if (file instanceof Uint8Array) {
      if (existing && existing.oid === blobId(file, existing.oid.length)) continue;
      changes.push({ path, bytes: file, mode });
    } else {
      if (existing && existing.oid === file.oid) continue;
      changes.push({ path, oid: file.oid, mode });
    }
  }
  for (const path of input.previous) {
    if (input.files.has(path)) continue;
    const existing = byPath.get(path);
    if (existing && (existing.mode === '100644' || existing.mode === '100755') && !blocked(path)) changes.push({ path, remove: true });
  }
  changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { changes, skipped };
}

/** Git's object id of a blob (SHA-1, or SHA-256 for repositories in that format). */
export function blobId(bytes: Uint8Array, length = 40): string {
  return createHash(length === 64 ? 'sha256' : 'sha1')
    .update(`blob ${bytes.length}\0`)
    .update(bytes)
    .digest('hex');
}
