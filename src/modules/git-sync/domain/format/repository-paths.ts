import { posix } from 'node:path';

/** `.gitbook.yaml`: where the space's content lives inside the (project directory of the) repository. */
export interface GitbookConfig {
  /** Directory of the content, relative to the project directory, `''` or ending with `/`. */
  root: string;
  /** The first page, relative to root. */
  readme: string;
  /** The table of contents, relative to root. */
  summary: string;
  redirects: Record<string, string>;
}

export const DEFAULT_CONFIG: GitbookConfig = { root: '', readme: 'README.md', summary: 'SUMMARY.md', redirects: {} };
export const ASSETS_DIR = '.gitbook/assets/';
export const INCLUDES_DIR = '.gitbook/includes/';
export const VARS_FILE = '.gitbook/vars.yaml';

/** A relative path normalized (`./a/../b` -> `b`); null when it leaves its base. */
export function normalizePath(path: string): string | null {
  const normalized = posix.normalize(path.replace(/^\.\//, ''));
  if (normalized === '.' || normalized === '') return '';
  if (normalized.startsWith('../') || normalized === '..' || posix.isAbsolute(normalized)) return null;
  return normalized;
}

/** `dir/` form: '' for the top, else ending with one `/`. */
export function asDirectory(path: string): string {
  const normalized = normalizePath(path) ?? '';
  return normalized === '' ? '' : `${normalized.replace(/\/+$/, '')}/`;
}

/** Where `href`, written in the file at `from`, points (relative to the same base); null outside it. */
export function resolveRelative(from: string, href: string): string | null {
  if (href.startsWith('/')) return normalizePath(href.slice(1));
  return normalizePath(posix.join(posix.dirname(from), href));
}

/** The href to write in the file at `from` for the file at `to` (both relative to one base). */
export function relativeHref(from: string, to: string): string {
  const relative = posix.relative(posix.dirname(from), to);
  return relative === '' ? posix.basename(to) : relative;
}

export function isReadme(path: string): boolean {
  return /^readme(?:\.md)?$/i.test(posix.basename(path));
}
