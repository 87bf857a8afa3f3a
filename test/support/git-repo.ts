import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';

/** Runs git in `cwd` as a fixed author, so commits are reproducible. */
export const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 'Repo', GIT_AUTHOR_EMAIL: 'repo@example.com', GIT_COMMITTER_NAME: 'Repo', GIT_COMMITTER_EMAIL: 'repo@example.com' } });

/** A bare repository under `tmp` holding `fixture` on main, and a working clone to change it. */
export function bareRepository(tmp: string, fixture: string): { url: string; work: string } {
  const bare = mkdtempSync(join(tmp, 'bare-'));
  git(bare, 'init', '-q', '--bare', '-b', 'main');
  const work = mkdtempSync(join(tmp, 'work-'));
  cpSync(fixture, work, { recursive: true });
  git(work, 'init', '-q', '-b', 'main');
  git(work, 'add', '-A');
  git(work, 'commit', '-q', '-m', 'docs');
  git(work, 'remote', 'add', 'origin', bare);
  git(work, 'push', '-q', 'origin', 'main');
  return { url: `file://${bare}`, work };
}
