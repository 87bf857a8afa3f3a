import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A throw-away git repository holding one commit of a directory of ours, readable at `url`. */
export interface DirectoryRepository {
  url: string;
  remove(): void;
}

/**
 * Commits `dir` (our own docs, not a stranger's repository) to a temporary repository on branch
 * main, with git's system and global configuration out of the way, so Git Sync can import it.
 */
export async function commitDirectory(dir: string): Promise<DirectoryRepository> {
  const root = mkdtempSync(join(tmpdir(), 'docs-publish-'));
  const remove = () => rmSync(root, { recursive: true, force: true });
  try {
    // Symbolic links are copied as links, which Git Sync skips: nothing outside `dir` is read.
    cpSync(dir, root, { recursive: true, verbatimSymlinks: true });
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: root, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
    const git = (...args: string[]) => run('git', ['-C', root, ...args], { env });
    await git('init', '-q', '-b', 'main');
    await git('add', '-A');
    await git('-c', 'user.name=Docs Platform', '-c', 'user.email=docs@localhost', 'commit', '-q', '-m', 'Docs Platform documentation');
    return { url: `file://${root}`, remove };
  } catch (error) {
    remove();
    throw error;
  }
}
