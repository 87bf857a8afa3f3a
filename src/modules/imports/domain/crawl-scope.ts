/** Paths that name files, not pages: never followed. */
const NOT_A_PAGE = /\.(?:png|jpe?g|gif|svg|webp|ico|bmp|pdf|zip|gz|tgz|tar|mp[34]|mov|avi|webm|woff2?|ttf|eot|otf|css|js|mjs|json|xml|txt|csv|xlsx?|docx?|pptx?)$/i;

/** A page to read: the address to fetch (as linked, without its fragment) and the key that makes it one page. */
export interface CrawlTarget {
  url: string;
  key: string;
}

/**
 * Which addresses a website import follows: those on the start address's origin under its
 * directory (`https://x.dev/docs/intro` covers `https://x.dev/docs/...`). Each page is read once:
 * addresses that differ only by query, fragment, `index.html` or a trailing slash share a key.
 */
export class CrawlScope {
  private readonly origin: string;
  private readonly prefix: string;

  constructor(start: string) {
    const url = new URL(start);
    this.origin = url.origin;
    this.prefix = url.pathname.slice(0, url.pathname.lastIndexOf('/') + 1);
  }

  /** The page an href (relative to `base`) names; null when out of scope or not a page. */
  page(href: string, base: string): CrawlTarget | null {
    let url: URL;
    try {
      url = new URL(href, base);
    } catch {
      return null;
    }
    if (url.origin !== this.origin || (url.protocol !== 'http:' && url.protocol !== 'https:')) return null;
    const path = normalizePath(url.pathname);
    // `/docs` itself is in `/docs/`'s scope: compare with a slash added.
    if (!`${path}/`.startsWith(this.prefix)) return null;
    if (NOT_A_PAGE.test(path)) return null;
    url.hash = '';
    return { url: url.toString(), key: this.origin + path };
  }
}

function normalizePath(pathname: string): string {
  let path = pathname.replace(/\/index\.html?$/i, '/').replace(/\/{2,}/g, '/');
  if (path.length > 1) path = path.replace(/\/$/, '');
  return path || '/';
}

/**
 * Where each imported page goes in the tree: under the page whose address is the closest proper
 * directory prefix of its own (`/docs/api/auth` under `/docs/api`), else at the top. Indexes into
 * `urls`; -1 for the top.
 */
export function parentIndexes(urls: string[]): number[] {
  const index = new Map(urls.map((url, i) => [new URL(url).pathname.replace(/\/$/, ''), i]));
  return urls.map((url) => {
    const segments = new URL(url).pathname.replace(/\/$/, '').split('/');
    for (let length = segments.length - 1; length > 0; length--) {
      const parent = index.get(segments.slice(0, length).join('/'));
      if (parent !== undefined) return parent;
    }
    return -1;
  });
}
