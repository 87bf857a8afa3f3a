// GitBook's content objects as the content reader answers them.

/** Whose content is read: a space's current revision, or the head of one of its change requests. */
export interface ContentScope {
  spaceId: string;
  changeRequest?: { id: string; number: number };
  /** Set when a past revision is read by id (`/spaces/{spaceId}/revisions/{revisionId}/...`). */
  revisionId?: string;
}

/** `document` (GitBook's node tree, the default) or `markdown` (front matter + body). */
export type PageFormat = 'document' | 'markdown';

/** GitBook's `RevisionFile`. */
export interface FileObject {
  id: string;
  name: string;
  contentType: string;
  downloadURL: string;
  size: number;
  dimensions?: { width: number; height: number };
}

export type PageObject = Record<string, unknown> & { id: string; type: 'document' | 'group' | 'link' | 'computed'; pages?: PageObject[] };

export interface RevisionObject {
  object: 'revision';
  id: string;
  parents: string[];
  type: string;
  pages: PageObject[];
  files: FileObject[];
  reusableContents: Array<{ id: string; title: string; document: string }>;
  variables: Record<string, string>;
  tags: never[];
  createdAt: string;
  urls: { app: string };
  mergedFrom?: unknown;
}
