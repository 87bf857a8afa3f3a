import type { ContentRef, LinkResolver } from '../../../content/domain/markdown';
import type { RevisionFile } from '../../../content/domain/revision-content';
import { PageTree, PathEntry } from './page-tree';

/**
 * How links written in authored markdown become content references, as GitBook's
 * `updateChangeRequestContent` describes it. Against the change request's page tree (after the
 * whole batch), a link target may name:
 *
 * - a page by id: `/pages/<pageId>` (and `/pages/<pageId>#anchor`);
 * - a page by slug path: `/pages/<slug>`, `/pages/<parent-slug>/<slug>`;
 * - a page by the path of its markdown file in Git: `/pages/<slug>.md`, `/pages/<slug>/README.md`
 *   for a page with children, `/pages/README.md` for the space's root (first) page; the same
 *   without `/pages` (`/guide.md`) from the root;
 * - a page by a relative markdown path from the page being edited: `./sibling.md`, `../other.md`,
 *   `../README.md` (the parent page), or folder style without extension (`./section`);
 * - a page or file inserted in the same batch by its `ref`: `./<ref>.md` (or `<ref>.md`,
 *   `./<ref>`) for a page, `./<ref>` for a file, whatever the order of the changes;
 * - a file by id: `/files/<fileId>`.
 *
 * Anything else (external URLs, anchors of the same page, paths that match nothing) is left as
 * written: a path that matches no page stays a plain link and does not fail the request.
 */

/**
 * What links resolve against. Built lazily: a link to a page by id walks the tree until it finds
 * it (remembered per id), and the index of every page's path is built only when some link names a
 * page by path, so an edit whose links name pages by id never indexes the whole space.
 */
export interface LinkTargets {
  hasPage(id: string): boolean;
  fileIds: ReadonlySet<string>;
  /** The document page at a path ('' for the root page). */
  pageAt(path: string): string | undefined;
  pageRefs: ReadonlyMap<string, string>;
  fileRefs: ReadonlyMap<string, string>;
}

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

export function linkTargets(
  tree: PageTree,
  files: RevisionFile[],
  pageRefs: ReadonlyMap<string, string>,
  fileRefs: ReadonlyMap<string, string>,
): LinkTargets {
  const known = new Map<string, boolean>();
  let pathIndex: Map<string, string> | undefined;
  return {
    hasPage(id) {
      let found = known.get(id);
      if (found === undefined) {
        found = tree.pagesAmong(new Set([id])).size > 0;
        known.set(id, found);
      }
      return found;
    },
    fileIds: new Set(files.map((file) => file.id)),
    pageAt(path) {
      pathIndex ??= pathsOf(tree);
      return pathIndex.get(path);
    },
    pageRefs,
    fileRefs,
  };
}

/** Path of every document page (and '' for the root page) -> id; the first page in tree order wins. */
function pathsOf(tree: PageTree): Map<string, string> {
  const pathIndex = new Map<string, string>();
  for (const entry of tree.entries()) {
    if (entry.node.kind !== 'document') continue;
    if (!pathIndex.has('')) pathIndex.set('', entry.node.id);
    if (!pathIndex.has(entry.path)) pathIndex.set(entry.path, entry.node.id);
  }
  return pathIndex;
}

/**
 * A resolver for markdownToDocument / extractLinks, for links written in the page `entry` (asked
 * for only by relative links: finding a page's path walks the tree).
 */
export function pageLinkResolver(targets: LinkTargets, entry: () => PathEntry): LinkResolver {
  return (href: string): ContentRef | undefined => {
    if (SCHEME.test(href) || href.startsWith('//')) return undefined;
    const hash = href.indexOf('#');
    const anchor = hash === -1 ? '' : href.slice(hash + 1);
    const path = (hash === -1 ? href : href.slice(0, hash)).split('?')[0];
    if (!path) return undefined;
    const target = resolvePath(targets, entry, path);
    if (!target) return undefined;
    if (anchor && target.kind === 'page') return { kind: 'anchor', anchor, page: target.page };
    return target;
  };
}

function resolvePath(targets: LinkTargets, entry: () => PathEntry, path: string): ContentRef | undefined {
  const page = (id: string | undefined): ContentRef | undefined => (id ? { kind: 'page', page: id } : undefined);

  if (!path.startsWith('/')) {
    const bare = path.replace(/^(?:\.\/)+/, '');
    const fileRef = targets.fileRefs.get(bare);
    if (fileRef) return { kind: 'file', file: fileRef };
    const pageRef = targets.pageRefs.get(bare) ?? targets.pageRefs.get(bare.replace(/\.md$/i, ''));
    if (pageRef) return page(pageRef);
    return page(lookup(targets, relativePath(entry(), path)));
  }

  const file = /^\/files\/([^/]+)\/?$/.exec(path);
  if (file) {
    if (targets.fileIds.has(file[1])) return { kind: 'file', file: file[1] };
    const fileRef = targets.fileRefs.get(file[1]);
    return fileRef ? { kind: 'file', file: fileRef } : undefined;
  }

  const pages = /^\/pages\/(.*?)\/?$/.exec(path);
  if (pages) {
    if (targets.hasPage(pages[1])) return page(pages[1]);
    return page(lookup(targets, pages[1].split('/')));
  }

  if (/\.md$/i.test(path)) return page(lookup(targets, path.slice(1).split('/')));
  return undefined;
}

/** Segments of a relative link from the page's own directory (Git Sync layout); null above the root. */
function relativePath(entry: PathEntry, path: string): string[] | null {
  const node = entry.node;
  const ownDirectory = node.kind === 'document' && node.pages.length > 0 ? entry.path : entry.parentPath;
  const parts = ownDirectory ? ownDirectory.split('/') : [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (parts.length === 0) return null;
      parts.pop();
    } else {
      parts.push(segment);
    }
  }
  return parts;
}

/** The page at a path given as segments: `guide`, `guide.md`, `guide/README.md`, `README.md` (root page). */
function lookup(targets: LinkTargets, segments: string[] | null): string | undefined {
  if (!segments) return undefined;
  const parts = segments.filter((s) => s !== '' && s !== '.');
  if (parts.length) {
    const last = parts[parts.length - 1].replace(/\.md$/i, '');
    if (last.toLowerCase() === 'readme') parts.pop();
    else parts[parts.length - 1] = last;
  }
  return targets.pageAt(parts.join('/'));
}
