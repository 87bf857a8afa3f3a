import { createHash } from 'node:crypto';
import { AUTHORING_LIMITS, ContentChange } from '../../change-requests/authoring/domain/changes';
import { CrawlScope, parentIndexes } from './crawl-scope';
import { MarkdownTooComplexError, parseTokens } from '../../content/domain/markdown/parser';
import { HtmlPage } from './html-page';

export interface CrawledPage extends HtmlPage {
  /** The address it was read from. */
  url: string;
  /** Its crawl key (see CrawlScope): links to any address with this key lead to it. */
  key: string;
}

/**
 * The id the import gives its n-th page: derived from the run, so a run written twice (a worker
 * that died after writing) finds its own pages already there instead of adding them again.
 */
export function importedPageId(runId: string, index: number): string {
  return createHash('sha256').update(`import:${runId}:${index}`).digest('base64url').replace(/[-_]/g, 'x').slice(0, 20);
}

/** Pages in the order they are written: parents (shorter addresses) before the pages under them. */
export function writeOrder(pages: CrawledPage[]): CrawledPage[] {
  const depth = (page: CrawledPage) => new URL(page.key).pathname.replace(/\/$/, '').split('/').length;
  return pages.map((page, i) => ({ page, i })).sort((a, b) => depth(a.page) - depth(b.page) || a.i - b.i).map(({ page }) => page);
}

/**
 * The `insert_page` changes that write crawled pages (already in `writeOrder`) under `into` (a
 * page id, or the root): each under the page of its closest parent address, with links between
 * imported pages pointing at the pages (`/pages/{id}`), other links as they were.
 */
export function importChanges(pages: CrawledPage[], ids: string[], scope: CrawlScope, into?: string): ContentChange[] {
  const parents = parentIndexes(pages.map((page) => page.key));
  const idOf = new Map(pages.map((page, i) => [page.key, ids[i]]));
  return pages.map((page, i) => ({
    operation: 'insert_page' as const,
    fields: { title: page.title.slice(0, AUTHORING_LIMITS.titleLength) },
    ...(parents[i] >= 0 ? { into: `import-${parents[i]}` } : into ? { into } : {}),
    ref: `import-${i}`,
    document: { kind: 'markdown' as const, markdown: linkPages(page.markdown, page.url, scope, idOf).slice(0, AUTHORING_LIMITS.markdownLength) },
  }));
}

/** Markdown links (`[text](href "title")`) to imported pages, rewritten to `/pages/{id}`. */
function linkPages(markdown: string, base: string, scope: CrawlScope, idOf: Map<string, string>): string {
  return markdown.replace(/\]\(([^()\s]+)((?:\s+"[^"]*")?)\)/g, (whole, href: string, title: string) => {
    const page = scope.page(href, base);
    const id = page ? idOf.get(page.key) : undefined;
    return id ? `](/pages/${id}${title})` : whole;
  });
}

/** Why a page's markdown cannot be written (it is over the parser's bounds), or null. */
export function unparsable(markdown: string): string | null {
  try {
    parseTokens(markdown);
    return null;
  } catch (error) {
    if (error instanceof MarkdownTooComplexError) return error.message;
    throw error;
  }
}
