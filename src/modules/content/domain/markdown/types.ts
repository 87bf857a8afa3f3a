/**
 * GitBook's document model (`JSONDocument` in the API contract), typed loosely enough to read any
 * document GitBook may hand us, and precisely enough for the subset this module produces.
 */

/** Where a link or an image points. The subset of GitBook's `ContentRef` this module produces. */
export type ContentRef =
  | { kind: 'url'; url: string }
  | { kind: 'page'; page: string; space?: string }
  | { kind: 'file'; file: string }
  | { kind: 'anchor'; anchor: string; page?: string; space?: string }
  | { kind: 'reusable-content'; reusableContent: string };

/**
 * Maps a link or image target, as written in the markdown (percent-decoded), to a content
 * reference; `null` lets the built-in rules decide (see `resolveHref`).
 */
export type LinkResolver = (href: string) => ContentRef | null | undefined;

/** The inverse of a resolver: the href to write for a reference; `null` falls back to the default. */
export type HrefWriter = (ref: ContentRef) => string | null | undefined;

export interface DocumentMark {
  object: 'mark';
  type: string;
  data?: Record<string, unknown>;
}

export interface DocumentLeaf {
  object: 'leaf';
  text: string;
  marks: DocumentMark[];
}

export interface DocumentText {
  object: 'text';
  key?: string;
  leaves: DocumentLeaf[];
}

export interface DocumentInline {
  object: 'inline';
  type: string;
  key?: string;
  data?: Record<string, any>;
  nodes?: Array<DocumentText | DocumentInline>;
  isVoid?: boolean;
}

export interface DocumentFragment {
  object: 'fragment';
  key?: string;
  fragment?: string;
  type?: string;
  nodes: DocumentBlock[];
}

export interface DocumentBlock {
  object: 'block';
  type: string;
  key?: string;
  data?: Record<string, any>;
  nodes?: Array<DocumentBlock | DocumentInline | DocumentText>;
  fragments?: DocumentFragment[];
  isVoid?: boolean;
  meta?: Record<string, unknown>;
}

export interface JSONDocument {
  object: 'document';
  data: { schemaVersion?: number; [key: string]: unknown };
  nodes: DocumentBlock[];
}

export type DocumentNode = DocumentBlock | DocumentInline | DocumentText;
