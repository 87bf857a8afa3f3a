/** One entry of `git ls-tree -r -l`: what a commit holds, read without a working tree. */
export interface TreeEntry {
  /** 100644, 100755, 120000 (symlink) or 160000 (submodule). */
  mode: string;
  oid: string;
  /** Bytes of a blob; 0 for a submodule. */
  size: number;
  path: string;
}

export interface SkippedEntry {
  path: string;
  reason: 'symlink' | 'submodule' | 'unsafe path';
}

export interface TreeSelection {
  /** Regular files under the project directory, paths relative to it. */
  files: Array<TreeEntry & { relative: string }>;
  skipped: SkippedEntry[];
  bytes: number;
}

export class TreeLimitError extends Error {}

/** A file of a commit to write: its bytes (or the id of a blob already written) and mode, or its removal. */
export type TreeChange = { path: string; bytes: Uint8Array; mode: string } | { path: string; oid: string; mode: string } | { path: string; remove: true };

const SYMLINK = '120000';
const SUBMODULE = '160000';

/**
 * The regular files of a tree listing under `directory` (`''` or `dir/`). Symlinks and
 * submodules are never followed: they are reported, with paths git could never check out safely
 * (`.git` segments, `..`). A symlinked project directory holds nothing, since its files are not
 * in the tree. Counts and sizes come from the listing, so an over-limit repository is refused
 * before any blob is read.
 */
export function selectFiles(entries: readonly TreeEntry[], directory: string, limits: { maxFiles: number; maxBytes: number }): TreeSelection {
  const files: TreeSelection['files'] = [];
  const skipped: SkippedEntry[] = [];
  let bytes = 0;
  for (const entry of entries) {
    if (!entry.path.startsWith(directory)) continue;
    const relative = entry.path.slice(directory.length);
    if (!isSafePath(entry.path)) skipped.push({ path: relative, reason: 'unsafe path' });
    else if (entry.mode === SYMLINK) skipped.push({ path: relative, reason: 'symlink' });
    else if (entry.mode === SUBMODULE) skipped.push({ path: relative, reason: 'submodule' });
    else if (entry.mode === '100644' || entry.mode === '100755') {
      files.push({ ...entry, relative });
      bytes += entry.size;
    }
  }
  if (files.length > limits.maxFiles) throw new TreeLimitError(`The repository has ${files.length} files, more than the ${limits.maxFiles} this server reads (GIT_SYNC_MAX_FILES)`);
  if (bytes > limits.maxBytes) throw new TreeLimitError(`The repository holds ${bytes} bytes, more than the ${limits.maxBytes} this server reads (GIT_SYNC_MAX_BYTES)`);
  return { files, skipped, bytes };
}

/**
 * Where an export may not write: a path through (or onto) a symlink or submodule of the tree it
 * builds on, or a path that is not safe. The caller skips those and reports them.
 */
export function blockedPaths(entries: readonly TreeEntry[]): (path: string) => SkippedEntry['reason'] | null {
  const special = new Map<string, SkippedEntry['reason']>();
  for (const entry of entries) {
    if (entry.mode === SYMLINK) special.set(entry.path, 'symlink');
    else if (entry.mode === SUBMODULE) special.set(entry.path, 'submodule');
  }
  return (path) => {
    if (!isSafePath(path)) return 'unsafe path';
    const segments = path.split('/');
    for (let i = 1; i <= segments.length; i++) {
      const reason = special.get(segments.slice(0, i).join('/'));
      if (reason) return reason;
    }
    return null;
  };
}

/** A relative path with no empty, `.`, `..` or `.git` segment (any case), no backslash and no control character. */
export function isSafePath(path: string): boolean {
  if (path === '' || path.includes('\\') || /[\u0000-\u001f\u007f]/.test(path)) return false;
  return path.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..' && segment.toLowerCase() !== '.git' && !/^\.git[ .]*$/i.test(segment));
}
