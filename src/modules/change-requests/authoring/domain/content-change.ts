import type { JSONDocument } from '../../../content/domain/markdown';

// The changes of GitBook's `updateChangeRequestContent` body, typed, with the limits on one batch.

export const MAX_CHANGES = 50;
export const MAX_FILES_PER_CHANGE = 20;
/** The contract's limit on inline (`base64`) file bytes. */
export const MAX_INLINE_FILE_BYTES = 1024 * 1024;

/** Limits the contract leaves open, chosen to keep one batch cheap to apply and store. */
export const AUTHORING_LIMITS = {
  titleLength: 256,
  descriptionLength: 1024,
  slugLength: 100,
  emojiLength: 50,
  iconLength: 50,
  idLength: 128,
  refLength: 256,
  fileNameLength: 256,
  contentTypeLength: 255,
  urlLength: 2048,
  /** Characters of one markdown document. */
  markdownLength: 1_000_000,
  /** Nodes of one JSON document (blocks, inlines, texts, leaves). */
  documentNodes: 100_000,
  blockKeys: 1000,
  blockKeyLength: 64,
};

/** A page's document as sent: markdown (with optional front matter), GitBook's JSON document, or empty (`{}`). */
export type DocumentInput = { kind: 'markdown'; markdown: string } | { kind: 'json'; document: JSONDocument } | { kind: 'empty' };

/** GitBook's `RevisionPageUpdate` (the properties this server stores). */
export interface PageFieldsInput {
  title?: string;
  slug?: string;
  /** '' removes it. */
  emoji?: string;
  /** '' removes it. */
  icon?: string;
  /** '' removes it. */
  description?: string;
  hidden?: boolean;
}

export interface InsertPageChange {
  operation: 'insert_page';
  fields: PageFieldsInput;
  /** Parent page id (or the `ref` of a page inserted earlier in the batch); root when absent. */
  into?: string;
  at?: number;
  ref?: string;
  document: DocumentInput;
}

export interface UpdatePageChange {
  operation: 'update_page';
  page: string;
  fields: PageFieldsInput;
  document?: DocumentInput;
  /** undefined: same parent; null: the root; otherwise a page id or batch ref. */
  into?: string | null;
  at?: number;
}

export interface DeletePageChange {
  operation: 'delete_page';
  page: string;
}

export interface RevertPageChange {
  operation: 'revert_page';
  page: string;
  /** Revision to revert to; the change request's base when absent. */
  revision?: string;
  /** Keys of blocks of the page's document; the whole page when absent. */
  block?: string[];
}

export type FileSource = { kind: 'url'; url: string } | { kind: 'base64'; base64: string };

export interface FileInput {
  ref?: string;
  name: string;
  /** Required with base64; overrides the fetched type with url. */
  contentType?: string;
  source: FileSource;
}

export interface InsertFilesChange {
  operation: 'insert_files';
  files: FileInput[];
}

export type ContentChange = InsertPageChange | UpdatePageChange | DeletePageChange | RevertPageChange | InsertFilesChange;

export const OPERATIONS = ['insert_page', 'update_page', 'delete_page', 'revert_page', 'insert_files'] as const;
