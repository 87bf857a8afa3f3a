/**
 * The content of one revision of a space: a tree of pages, the files, variables and reusable
 * contents. Revisions are immutable; document bodies are stored content-addressed (hash ->
 * markdown), so a new revision copies references, never text.
 */

/** GitBook's page `type`. */
export type PageKind = 'document' | 'group' | 'link' | 'computed';

/**
 * Where a computed page's content comes from (GitBook's `ComputedContentSourceRevision`), e.g.
 * `{type: 'builtin:openapi', props: {models: true}, dependencies: {spec: {ref: {kind: 'openapi', spec: 'petstore'}}}}`:
 * readers see pages generated from the spec's current version.
 */
export interface ComputedSource {
  type: string;
  props?: Record<string, unknown>;
  dependencies?: Record<string, unknown>;
}

/** The OpenAPI spec (slug) a `builtin:openapi` source is computed from; null for other sources or without one. */
export function openapiSpecOf(source: ComputedSource | undefined): string | null {
  if (source?.type !== 'builtin:openapi') return null;
  const spec = (source.dependencies?.spec as { ref?: { spec?: unknown } } | undefined)?.ref?.spec;
  return typeof spec === 'string' && spec ? spec : null;
}

/** The OpenAPI specs (slugs) the computed pages of a tree are generated from. */
/** Pages hidden, or under a hidden page: hidden means hidden with its subtree, wherever a reader looks. */
export function hiddenPageIds(pages: PageNode[]): Set<string> {
  const hidden = new Set<string>();
  const visit = (nodes: PageNode[], inherited: boolean) => {
    for (const node of nodes) {
      const isHidden = inherited || !!node.hidden;
      if (isHidden) hidden.add(node.id);
      visit(node.pages, isHidden);
    }
  };
  visit(pages, false);
  return hidden;
}

export function computedSpecs(pages: PageNode[]): string[] {
  const out = new Set<string>();
  const visit = (nodes: PageNode[]) => {
    for (const node of nodes) {
      const spec = node.kind === 'computed' ? openapiSpecOf(node.computed) : null;
      if (spec) out.add(spec);
      visit(node.pages);
    }
  };
  visit(pages);
  return [...out];
}

/** A computed page's source as GitBook's contract shows it: an OpenAPI source always says whether it lists `models`. */
export function presentComputedSource(source: ComputedSource | undefined): ComputedSource {
  const value = source ?? { type: 'builtin:openapi' };
  if (value.type !== 'builtin:openapi') return value;
  return { ...value, props: { ...(value.props ?? {}), models: value.props?.models === true }, dependencies: value.dependencies ?? {} };
}

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
  /** Computed pages: what they are computed from. */
  computed?: ComputedSource;
  /** Link pages: where the link points (a URL, a page, a heading of a page, or a file). */
  target?: LinkPageTarget;
  createdAt: string;
  updatedAt: string;
  pages: PageNode[];
}

/** Where a link page points: GitBook's content references a table of contents may hold. */
export type LinkPageTarget =
  | { kind: 'url'; url: string }
  | { kind: 'page'; page: string; space?: string }
  | { kind: 'anchor'; anchor: string; page: string; space?: string }
  | { kind: 'file'; file: string };

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
