/**
 * The content of one revision of a space: a tree of pages, the files, variables and reusable
 * contents. Revisions are immutable; document bodies are stored content-addressed (hash ->
 * markdown), so a new revision copies references, never text.
 */

/** GitBook's page `type`. */
export type PageKind = 'document' | 'group' | 'link';

export interface PageNode {
  id: string;
  kind: PageKind;
  title: string;
  /** URL segment, unique among siblings. */
  slug: string;
  emoji?: string;
  icon?: string;
  description?: string;
  hidden?: boolean;
  layout?: Record<string, unknown>;
  /**
   * Front matter keys this server does not interpret (GitBook's `cover`, `coverY`, `noIndex`,
   * `tags`, `vars`, `if`...), kept so a Git Sync round trip does not drop them.
   */
  frontMatter?: Record<string, unknown>;
  /** Document pages: hash of the markdown body (see documentHash). */
  documentHash?: string;
  /** Link pages: where the link points (a URL or a content reference). */
  target?: { kind: 'url'; url: string } | { kind: 'page'; page: string; space?: string } | { kind: 'file'; file: string };
  createdAt: string;
  updatedAt: string;
  pages: PageNode[];
}

export interface RevisionFile {
  id: string;
  name: string;
  contentType: string;
  size: number;
  dimensions?: { width: number; height: number };
  /** Key of the bytes in the file storage. */
  storageKey: string;
}

export interface ReusableContent {
  id: string;
  title: string;
  documentHash: string;
}

export interface RevisionContent {
  pages: PageNode[];
  files: RevisionFile[];
  variables: Record<string, string>;
  reusableContents: ReusableContent[];
}

export function emptyContent(): RevisionContent {
  return { pages: [], files: [], variables: {}, reusableContents: [] };
}
