import { ContentStore } from '../../content/application/content-store.service';
import { SearchService } from '../../search/application/search.service';
import { Admission, PublishedSitesService, PublishedTarget } from '../../sites/application/published-sites.service';
import { IndexedPage, PageIndex } from '../domain/page-index';
import { llmsTxt, robotsTxt, sitemapXml } from '../domain/robots';
import { renderSearchResults } from '../domain/site-page-html';
import type { ReaderResponse } from './published-reader.service';
import { SiteChrome } from './site-chrome';
import { SiteSpaceIndexes } from './site-space-indexes';

/** The path of a site's search results page. */
export const SEARCH = '~search';

/** What a site answers beside its pages: a page's markdown, the search results page, robots.txt, sitemap.xml and llms.txt. */
export class SidePages {
  constructor(
    private readonly published: PublishedSitesService,
    private readonly store: ContentStore,
    private readonly searchService: SearchService,
    private readonly siteSpaces: SiteSpaceIndexes,
    private readonly chrome: SiteChrome,
  ) {}

  /** A page's markdown (`<path>.md`): its title, description and body as stored. */
  async markdown(index: PageIndex, pagePath: string): Promise<{ status: number; body: string; type: string; pageId?: string }> {
    const entry = index.byPath.get(pagePath);
    if (!entry) return { status: 404, body: 'Not found\n', type: 'text/plain; charset=utf-8' };
    const pageId = entry.node.id;
    if (entry.node.generated) return { status: 200, body: `# ${entry.node.title}\n\n${entry.node.generated.markdown}\n`, type: 'text/markdown; charset=utf-8', pageId };
    const hash = entry.node.documentHash ?? null;
    const body = hash ? ((await this.store.loadDocuments([hash])).get(hash) ?? '') : '';
    return { status: 200, body: `# ${entry.node.title}\n\n${entry.node.description ? `${entry.node.description}\n\n` : ''}${body}`, type: 'text/markdown; charset=utf-8', pageId };
  }

  /** The search results page of the site space shown (`~search?q=`). */
  async search(target: PublishedTarget, index: PageIndex, space: { id: string; revisionId: string; language: string | null }, query: string): Promise<{ status: number; body: string; query?: string; results?: number }> {
    const href = (path: string) => this.published.hrefOf(target, target.address.sectionId, target.address.siteSpaceId, path);
    const trimmed = query.trim().slice(0, 200);
    const page = trimmed ? await this.searchService.searchPublishedSpace(space, trimmed, { limit: 20 }) : { items: [] };
    const hits = page.items
      .map((hit) => ({ hit, entry: index.byId.get(hit.id) }))
      .filter(({ entry }) => entry && entry.path && !entry.hidden)
      .map(({ hit, entry }) => ({ title: hit.title, href: `${href(entry!.path)}${hit.sections[0]?.id ? `#${encodeURIComponent(hit.sections[0].id)}` : ''}`, excerpt: hit.sections[0]?.body }));
    return {
      status: 200,
      ...(trimmed ? { query: trimmed, results: hits.length } : {}),
      body: renderSearchResults({
        siteTitle: target.site.title,
        siteHref: `${target.siteBaseUrl}/`,
        query: trimmed,
        hits,
        searchAction: href(SEARCH),
        theme: this.chrome.theme(target),
        noindex: true,
        sections: this.chrome.sectionTabs(target),
      }),
    };
  }

  /** robots.txt, sitemap.xml and llms.txt, over every section and variant this reader may see. */
  async special(target: PublishedTarget, name: string): Promise<ReaderResponse> {
    const indexed = indexable(target);
    const headers = { 'Cache-Control': indexed ? 'public, max-age=300' : 'private, no-cache', ...(indexed ? {} : { 'X-Robots-Tag': 'noindex' }) };
    if (name === 'robots.txt') return { status: 200, headers: { 'Content-Type': 'text/plain; charset=utf-8', ...headers }, body: robotsTxt(indexed, `${target.siteBaseUrl}/sitemap.xml`) };
    const groups: Array<{ title: string; pages: Array<{ page: IndexedPage; url: string }> }> = [];
    for (const { title, index, href } of await this.siteSpaces.of(target)) {
      groups.push({ title, pages: index.readingOrder.map((page) => ({ page, url: href(page.path) })) });
    }
    if (name === 'sitemap.xml') {
      const entries = indexed ? groups.flatMap((g) => g.pages.map(({ page, url }) => ({ url, updatedAt: page.node.updatedAt }))) : [];
      return { status: 200, headers: { 'Content-Type': 'application/xml; charset=utf-8', ...headers }, body: sitemapXml(entries) };
    }
    const md = groups.map((g) => ({ title: g.title, pages: g.pages.map(({ page, url }) => ({ page, url: `${url}.md` })) }));
    return { status: 200, headers: { 'Content-Type': 'text/plain; charset=utf-8', ...headers }, body: llmsTxt(target.site.title, md) };
  }
}

/** Whether search engines may index what this reader sees: public sites, not through a preview. */
export function indexable(admission: Admission): boolean {
  return admission.site.visibility === 'public' && !admission.preview;
}
