import { createHash } from 'node:crypto';
import { PageNode, ReusableContent } from '../../../content/domain/revision-content';

/**
 * What the last sync read or wrote, per item of the space: its file (relative to the content root)
 * and a fingerprint of what the space made of it. An export writes an item again only when its
 * fingerprint changed, at the path it came from, so the files nobody edited keep their bytes.
 */
export interface SyncedSources {
  /** Document page id -> its markdown file ('' for a text item of SUMMARY.md), and fingerprints of the page and of its file's header. */
  pages: Record<string, { path: string; fingerprint: string; meta?: string }>;
  /** Reusable content id -> its include file. */
  includes: Record<string, { path: string; fingerprint: string }>;
  /** Content file id -> its file (anywhere in the repository, not only `.gitbook/assets/`). */
  files: Record<string, string>;
  /** The page tree as SUMMARY.md shows it. */
  summary: string | null;
  variables: string | null;
  /** The import's key of every page (path, `group:`, `link:`, `text:`) -> its id, so the next import keeps them all. */
  keys?: Record<string, string>;
}

export const NO_SOURCES: SyncedSources = { pages: {}, includes: {}, files: {}, summary: null, variables: null };

/** Keys sorted, undefined dropped: the same value stored as jsonb (which reorders keys) hashes the same. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

const hash = (value: unknown) => createHash('sha256').update(JSON.stringify(canonical(value))).digest('hex').slice(0, 32);

/** A document page's body and every property its file's front matter and title hold. */
export function pageFingerprint(page: PageNode): string {
  return hash([page.documentHash ?? null, pageMetaFingerprint(page)]);
}

/** What a page file's header (front matter and `# title`) holds. */
export function pageMetaFingerprint(page: PageNode): string {
  return hash([page.title, page.emoji ?? null, page.icon ?? null, page.description ?? null, page.hidden ?? null, page.layout ?? null, page.frontMatter ?? null]);
}

export function includeFingerprint(reusable: ReusableContent): string {
  return hash([reusable.documentHash, reusable.title]);
}

/** The tree as SUMMARY.md writes it: order, nesting, kinds, titles, link targets, group anchors. */
export function structureFingerprint(pages: readonly PageNode[]): string {
  const shape = (list: readonly PageNode[]): unknown[] =>
    list.map((page) => [
      page.id,
      page.kind,
      page.title,
      page.kind === 'group' ? page.slug : null,
      page.target ?? null,
      page.computed ?? null,
      page.frontMatter?.linkTitle ?? null,
      shape(page.pages),
    ]);
  return hash(shape(pages));
}

export function variablesFingerprint(variables: Record<string, string>): string | null {
  const keys = Object.keys(variables).sort();
  return keys.length ? hash(keys.map((k) => [k, variables[k]])) : null;
}
