import { ContentRef, HrefWriter, LinkResolver } from './types';

/** Percent-decodes a link target for display and resolution; malformed escapes stay as written. */
export function decodeHref(href: string): string {
  return href.replace(/(%[0-9a-f]{2})+/gi, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

const PAGE_PATH = /^\/(?:spaces\/([^/?#]+)\/)?pages\/([^/?#]+)\/?$/;
const FILE_PATH = /^\/files\/([^/?#]+)\/?$/;
const REUSABLE_PATH = /^\/reusable-contents\/([^/?#]+)\/?$/;

/** An `{% include %}` target: the resolver's answer, `/reusable-contents/<id>`, else a url. */
export function resolveInclude(path: string, resolver?: LinkResolver): ContentRef {
  const resolved = resolver?.(decodeHref(path));
  if (resolved) return resolved;
  const own = REUSABLE_PATH.exec(path);
  return own ? { kind: 'reusable-content', reusableContent: own[1] } : { kind: 'url', url: path };
}

/**
 * The content reference of a link target as markdown-it normalized it (percent-encoded). Path
 * matching and the resolver see the percent-decoded target; a `url` reference keeps it encoded.
 *
 * 1. the caller's resolver, when it answers (e.g. relative `../guide.md` paths to page ids);
 * 2. `#anchor` -> anchor in the current page;
 * 3. `/pages/<id>` (or `/spaces/<space>/pages/<id>`) -> page, `/files/<id>` -> file;
 *    with a `#fragment`, a page becomes an anchor in that page;
 * 4. `path#fragment` whose path the resolver maps to a page -> anchor in that page;
 * 5. anything else -> url.
 */
export function resolveHref(href: string, resolver?: LinkResolver): ContentRef {
  const decoded = decodeHref(href);
  const resolved = resolver?.(decoded);
  if (resolved) return resolved;
  const url: ContentRef = { kind: 'url', url: href };
  const hash = decoded.indexOf('#');
  const path = hash === -1 ? decoded : decoded.slice(0, hash);
  const anchor = hash === -1 ? undefined : decoded.slice(hash + 1);
  if (path === '') return anchor ? { kind: 'anchor', anchor } : url;

  let target: ContentRef | null = null;
  const page = PAGE_PATH.exec(path);
  const file = FILE_PATH.exec(path);
  if (page) target = page[1] ? { kind: 'page', page: page[2], space: page[1] } : { kind: 'page', page: page[2] };
  else if (file) target = { kind: 'file', file: file[1] };
  else if (anchor) target = resolver?.(path) ?? null;

  if (!target) return url;
  if (anchor === undefined) return target;
  if (target.kind === 'page' && anchor) {
    return target.space
      ? { kind: 'anchor', anchor, page: target.page, space: target.space }
      : { kind: 'anchor', anchor, page: target.page };
  }
  return url;
}

/** The href written for a reference: the caller's writer first, then the inverse of resolveHref. */
export function hrefForRef(reference: ContentRef | Record<string, unknown>, writer?: HrefWriter): string | null {
  const written = writer?.(reference as ContentRef);
  const ref = reference as Record<string, any>;
  if (written !== null && written !== undefined) return written;
  const pagePath = (page: string, space?: string) => (space ? `/spaces/${space}/pages/${page}` : `/pages/${page}`);
  switch (ref.kind) {
    case 'url':
      return typeof ref.url === 'string' ? ref.url : null;
    case 'page':
      return typeof ref.page === 'string' ? pagePath(ref.page, ref.space) : null;
    case 'file':
      return typeof ref.file === 'string' ? `/files/${ref.file}` : null;
    case 'reusable-content':
      return typeof ref.reusableContent === 'string' ? `/reusable-contents/${ref.reusableContent}` : null;
    case 'anchor':
      if (typeof ref.anchor !== 'string') return null;
      return `${typeof ref.page === 'string' ? pagePath(ref.page, ref.space) : ''}#${ref.anchor}`;
    default:
      return null;
  }
}
