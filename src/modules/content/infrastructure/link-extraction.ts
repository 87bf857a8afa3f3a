import { extractLinks } from '../domain/markdown';
import type { LinkStatus } from '../domain/link-status';
import type { ContentRef } from '../domain/markdown';
import { decodeHref } from '../domain/markdown/refs';
import { PlacedPage, place } from '../domain/page-tree-diff';
import { PageNode, RevisionContent } from '../domain/revision-content';

/**
 * Link data of a revision: every link and image of every page, resolved against that revision
 * and given a status. Pure functions; the incremental writer (link-indexer.ts) decides which
 * pages need them.
 *
 * Status:
 * - `broken`: a page or file of this space that the revision does not have, or a relative `.md`
 *   path that names no page of the revision;
 * - `in-app`: an absolute URL into this server's app (`PUBLIC_URL/app...`), which should be a
 *   content reference instead;
 * - `ok`: everything else (external URLs, pages of other spaces are not checked).
 *
 * Links to an anchor of the same page (`#section`) are not content links and are left out.
 */


/** url | page | file; `path` is a relative `.md` path that matched no page (always broken). */
export type LinkTargetKind = 'url' | 'page' | 'file' | 'path';

/** `link` and `image` come from the markdown body; `page` is the target of a link page. */
export type LinkSource = 'link' | 'image' | 'page';

export interface LinkRow {
  pageId: string;
  /** Order of the link in its page. */
  position: number;
  source: LinkSource;
  /** The target as written (markdown-it normalized, percent-encoded). */
  href: string;
  targetKind: LinkTargetKind;
  /** Page or file id; the URL for `url`; the normalized path for `path`. */
  targetId: string;
  /** The other space of a page in another space; null for this space. */
  targetSpace: string | null;
  anchor: string | null;
  /** What links to the same thing share: `page:<id>`, `file:<id>`, `url:<url>`, `path:<path>`, `space:<s>:page:<id>`. */
  targetKey: string;
  status: LinkStatus;
  /** Written as a relative `.md` path: its target depends on where the page sits. */
  relative: boolean;
}

/** A page with where it sits in its revision's tree. */
/** A page with its path and ancestors (see PlacedPage). */
export type PageEntry = PlacedPage;

export interface LinkContext {
  spaceId: string;
  pageIds: ReadonlySet<string>;
  fileIds: ReadonlySet<string>;
  /** Path of every document page -> its id (for relative `.md` links). */
  pathIndex: ReadonlyMap<string, string>;
  /** `PUBLIC_URL/app`: absolute URLs under it are `in-app`. */
  appBase: string;
}

/** Every page of a tree in document order, with its path and ancestors. */
export function flattenPages(pages: readonly PageNode[]): PageEntry[] {
  const entries: PageEntry[] = [];
  const visit = (nodes: readonly PageNode[], parentPath: string, ancestors: PageNode[]) => {
    for (const node of nodes) {
      const entry = place(node, parentPath, ancestors);
      entries.push(entry);
      visit(node.pages ?? [], node.kind === 'group' ? parentPath : entry.path, [...ancestors, node]);
    }
  };
  visit(pages, '', []);
  return entries;
}

/**
 * What resolving links needs to know about a revision. The page sets are built on first use
 * (from `entries`, or by flattening the tree), so indexing pages without links never walks a
 * large tree.
 */
export function linkContext(spaceId: string, content: RevisionContent, entries: PageEntry[] | null, appBase: string): LinkContext {
  let pageIds: Set<string> | undefined;
  let pathIndex: Map<string, string> | undefined;
  const all = () => entries ?? (entries = flattenPages(content.pages));
  return {
    spaceId,
    get pageIds() {
      return (pageIds ??= new Set(all().map((e) => e.node.id)));
    },
    fileIds: new Set(content.files.map((f) => f.id)),
    get pathIndex() {
      if (!pathIndex) {
        pathIndex = new Map<string, string>();
        for (const entry of all()) {
          if (entry.node.kind === 'document' && !pathIndex.has(entry.path)) pathIndex.set(entry.path, entry.node.id);
        }
      }
      return pathIndex;
    },
    appBase: appBase.replace(/\/+$/, ''),
  };
}

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/**
 * The page path a relative `.md` link names, seen from a page (null when the target is not a
 * relative `.md` path). `guide.md`, `./guide.md`, `../other/guide.md`, `/guide.md` (from the
 * root), `section/README.md` (the page `section`). A page with children is read as
 * `<path>/README.md`, any other page as `<path>.md`, as Git Sync lays them out.
 */
export function relativeTarget(decoded: string, entry: PageEntry): { path: string; anchor: string | null } | null {
  const hash = decoded.indexOf('#');
  const anchor = hash === -1 ? null : decoded.slice(hash + 1) || null;
  let target = (hash === -1 ? decoded : decoded.slice(0, hash)).split('?')[0];
  if (!target || SCHEME.test(target) || target.startsWith('//')) return null;
  if (!/\.md$/i.test(target)) return null;
  let base: string[];
  if (target.startsWith('/')) {
    base = [];
    target = target.slice(1);
  } else if (entry.node.kind === 'document' && (entry.node.pages ?? []).length > 0) {
    base = entry.path.split('/');
  } else {
    base = entry.parentPath ? entry.parentPath.split('/') : [];
  }
  const parts = [...base];
  for (const segment of target.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') parts.pop();
    else parts.push(segment);
  }
  let last = parts.pop() ?? '';
  last = last.replace(/\.md$/i, '');
  if (last.toLowerCase() !== 'readme') parts.push(last);
  return { path: parts.join('/'), anchor };
}

function isInApp(url: string, appBase: string): boolean {
  if (!appBase) return false;
  return url === appBase || url.startsWith(`${appBase}/`) || url.startsWith(`${appBase}?`) || url.startsWith(`${appBase}#`);
}

function pageRow(
  base: Pick<LinkRow, 'pageId' | 'position' | 'source' | 'href'>,
  pageId: string,
  space: string | undefined,
  anchor: string | null,
  ctx: LinkContext,
  relative: boolean,
): LinkRow {
  if (space && space !== ctx.spaceId) {
    return { ...base, targetKind: 'page', targetId: pageId, targetSpace: space, anchor, targetKey: `space:${space}:page:${pageId}`, status: 'ok', relative };
  }
  return {
    ...base,
    targetKind: 'page',
    targetId: pageId,
    targetSpace: null,
    anchor,
    targetKey: `page:${pageId}`,
    status: ctx.pageIds.has(pageId) ? 'ok' : 'broken',
    relative,
  };
}

/** One stored link from a reference; null for an anchor in the same page. */
export function rowForRef(
  base: Pick<LinkRow, 'pageId' | 'position' | 'source' | 'href'>,
  ref: ContentRef,
  entry: PageEntry,
  ctx: LinkContext,
): LinkRow | null {
  const rel = relativeTarget(decodeHref(base.href), entry);
  if (rel) {
    const id = ctx.pathIndex.get(rel.path);
    if (id) return pageRow(base, id, undefined, rel.anchor, ctx, true);
    return { ...base, targetKind: 'path', targetId: rel.path, targetSpace: null, anchor: rel.anchor, targetKey: `path:${rel.path}`, status: 'broken', relative: true };
  }
  switch (ref.kind) {
    case 'page':
      return pageRow(base, ref.page, ref.space, null, ctx, false);
    case 'anchor':
      if (!ref.page || (ref.page === entry.node.id && (!ref.space || ref.space === ctx.spaceId))) return null;
      return pageRow(base, ref.page, ref.space, ref.anchor, ctx, false);
    case 'file':
      return {
        ...base,
        targetKind: 'file',
        targetId: ref.file,
        targetSpace: null,
        anchor: null,
        targetKey: `file:${ref.file}`,
        status: ctx.fileIds.has(ref.file) ? 'ok' : 'broken',
        relative: false,
      };
    case 'reusable-content':
      return null;
    default: {
      const url = ref.url;
      return {
        ...base,
        targetKind: 'url',
        targetId: url,
        targetSpace: null,
        anchor: null,
        targetKey: `url:${url}`,
        status: isInApp(url, ctx.appBase) ? 'in-app' : 'ok',
        relative: false,
      };
    }
  }
}

/** The links of one page: the links and images of a document's body, or a link page's target. */
export function pageLinks(entry: PageEntry, body: string | undefined, ctx: LinkContext): LinkRow[] {
  const node = entry.node;
  if (node.kind === 'link') {
    const target = node.target;
    if (!target) return [];
    const base = { pageId: node.id, position: 0, source: 'page' as const };
    let row: LinkRow | null;
    if (target.kind === 'url') row = rowForRef({ ...base, href: target.url }, { kind: 'url', url: target.url }, entry, ctx);
    else if (target.kind === 'file') row = rowForRef({ ...base, href: `/files/${target.file}` }, { kind: 'file', file: target.file }, entry, ctx);
    else {
      const href = target.space ? `/spaces/${target.space}/pages/${target.page}` : `/pages/${target.page}`;
      const space = target.space ? { space: target.space } : {};
      row =
        target.kind === 'anchor'
          ? rowForRef({ ...base, href: `${href}#${target.anchor}` }, { kind: 'anchor', anchor: target.anchor, page: target.page, ...space }, entry, ctx)
          : rowForRef({ ...base, href }, { kind: 'page', page: target.page, ...space }, entry, ctx);
    }
    return row ? [row] : [];
  }
  if (node.kind !== 'document' || !body) return [];
  const rows: LinkRow[] = [];
  extractLinks(body).forEach((link, position) => {
    const row = rowForRef({ pageId: node.id, position, source: link.source, href: link.href }, link.ref, entry, ctx);
    if (row) rows.push(row);
  });
  return rows;
}

/** A stored relative link resolved again after pages moved (its page's body is unchanged). */
export function reresolveRelative(row: LinkRow, entry: PageEntry, ctx: LinkContext): LinkRow | null {
  return rowForRef({ pageId: row.pageId, position: row.position, source: row.source, href: row.href }, { kind: 'url', url: row.href }, entry, ctx);
}

export type { LinkStatus } from '../domain/link-status';
