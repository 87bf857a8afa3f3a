import { Injectable } from '@nestjs/common';
import { NotFoundError } from '@app/common';
import { ContentStore } from '../../content/application/content-store.service';
import { SearchService } from '../../search/application/search.service';
import { PublishedSitesService, PublishedTarget } from '../../sites/application/published-sites.service';
import { siteCustomization, pageActionsOn } from '../../sites/domain/customization';
import { VisitorInput } from '../../sites/domain/visitor';
import { IndexedPage } from '../domain/page-index';
import { IndexedSiteSpace, SiteSpaceIndexes } from './site-space-indexes';

export interface AgentPage {
  id: string;
  title: string;
  url: string;
  space: string;
}

export interface AgentSearchHit extends AgentPage {
  spaceId: string;
  revisionId: string;
  /** The sections of the page that matched, best first. */
  sections: Array<{ id: string; title: string; body: string }>;
  /** The section of the page that matched, when the index knows it. */
  excerpt?: string;
}

const MAX_SEARCH_SPACES = 10;

/**
 * A published site read by an agent (the site's MCP server): the same site, sections, variants and
 * pages its reader at that address sees (share links, visitor tokens and conditions applied), its
 * published content only, never a change request. Hidden pages are read when asked for by address
 * or id, as a reader with the link can, but are not listed or found by search.
 */
export class SiteReading {
  constructor(
    readonly site: { id: string; organizationId: string },
    readonly title: string,
    readonly siteUrl: string,
    private readonly spaces: readonly IndexedSiteSpace[],
    private readonly store: ContentStore,
    private readonly search: SearchService,
  ) {}

  /** The table of contents: every listed page, in reading order, space by space. */
  tableOfContents(): Array<{ space: string; pages: Array<AgentPage & { depth: number }> }> {
    return this.spaces.map((s) => ({
      space: s.title,
      pages: s.index.readingOrder.filter((page) => !page.hidden).map((page) => ({ ...this.describe(s, page), depth: depthOf(page) })),
    }));
  }

  async searchPages(query: string, limit: number): Promise<AgentSearchHit[]> {
    const trimmed = query.trim().slice(0, 200);
    if (!trimmed) return [];
    const perSpace = await Promise.all(
      this.spaces.slice(0, MAX_SEARCH_SPACES).map(async (s) => {
        const page = await this.search.searchPublishedSpace(s.space, trimmed, { limit });
        return page.items
          .map((hit) => ({ hit, entry: s.index.byId.get(hit.id) }))
          .filter(({ entry }) => entry && !entry.hidden)
          .map(({ hit, entry }) => ({
            ...this.describe(s, entry!),
            spaceId: s.space.id,
            revisionId: s.space.revisionId,
            sections: hit.sections.map((section) => ({ id: section.id, title: section.title, body: section.body })),
            ...(hit.sections[0]?.body ? { excerpt: hit.sections[0].body } : {}),
          }));
      }),
    );
    return perSpace.flat().slice(0, limit);
  }

  /** A page as markdown, found by its id or its address (a full URL or a path within the site). */
  async readPage(ref: { id?: string; path?: string }): Promise<(AgentPage & { markdown: string }) | null> {
    const found = this.find(ref);
    if (!found) return null;
    const { space, page } = found;
    const node = page.node;
    let body: string;
    if (node.generated) body = node.generated.markdown;
    else {
      const hash = node.documentHash ?? null;
      body = hash ? ((await this.store.loadDocuments([hash])).get(hash) ?? '') : '';
    }
    const markdown = `# ${node.title}\n\n${node.description ? `${node.description}\n\n` : ''}${body}`.trimEnd() + '\n';
    return { ...this.describe(space, page), markdown };
  }

  private find({ id, path }: { id?: string; path?: string }): { space: IndexedSiteSpace; page: IndexedPage } | null {
    for (const space of this.spaces) {
      if (id) {
        const page = space.index.byId.get(id);
        if (page) return { space, page };
        continue;
      }
      if (path === undefined) continue;
      // The space's own address, then the page's path below it (a space at the site's root has no address of its own).
      const wanted = normalizePath(path, this.siteUrl);
      const root = normalizePath(space.href(''), this.siteUrl);
      if (root && wanted !== root && !wanted.startsWith(`${root}/`)) continue;
      const page = space.index.byPath.get(root ? wanted.slice(root.length + 1) : wanted);
      if (page) return { space, page };
    }
    return null;
  }

  private describe(space: IndexedSiteSpace, page: IndexedPage): AgentPage {
    return { id: page.node.id, title: page.node.title, url: space.href(page.path), space: space.title };
  }
}

/** A page's address as a path below the site (no origin, no trailing slash, no `.md`). */
function normalizePath(value: string, siteUrl: string): string {
  let path = value.trim();
  if (path.startsWith(siteUrl)) path = path.slice(siteUrl.length);
  else if (/^https?:\/\//i.test(path)) path = new URL(path).pathname.replace(new URL(siteUrl).pathname, '');
  path = path.split(/[?#]/)[0].replace(/\.md$/, '').replace(/^\/+|\/+$/g, '');
  return path;
}

function depthOf(page: IndexedPage): number {
  return page.path ? page.path.split('/').length - 1 : 0;
}

/** Opens a published site for an agent, with the reader's admission rules. */
@Injectable()
export class SiteAgentReader {
  constructor(
    private readonly published: PublishedSitesService,
    private readonly store: ContentStore,
    private readonly search: SearchService,
    private readonly siteSpaces: SiteSpaceIndexes,
  ) {}

  /**
   * The site at `siteUrl` (its address, with a share key when there is one) as `visitor` may read it.
   * @throws NotFoundError when no published site lives there; VisitorAuthRequiredError when it needs a visitor token.
   */
  async open(siteUrl: URL, visitor: VisitorInput): Promise<SiteReading> {
    // A site whose page actions menu is turned off has no MCP server either.
    return this.read(siteUrl, visitor, (site) => pageActionsOn(siteCustomization(site)));
  }

  /** The id of the site at `siteUrl` (whose cookies a reader's request carries), or null. */
  async siteIdAt(siteUrl: URL): Promise<string | null> {
    return (await this.published.locate(siteUrl))?.site.id ?? null;
  }

  /** The same for the site's own reader pages (its Ask box): page actions do not matter. */
  openForReader(siteUrl: URL, visitor: VisitorInput): Promise<SiteReading> {
    return this.read(siteUrl, visitor, () => true);
  }

  private async read(siteUrl: URL, visitor: VisitorInput, allowed: (site: PublishedTarget['site']) => boolean): Promise<SiteReading> {
    const location = await this.published.locate(siteUrl);
    if (!location) throw NotFoundError.of('Site');
    const admission = await this.published.admit(location, visitor);
    if (admission.preview) throw NotFoundError.of('Site'); // previews are for members in a browser, not agents
    if (!allowed(admission.site)) throw NotFoundError.of('Site');
    const target: PublishedTarget = await this.published.resolve({ ...admission, segments: [] });
    return new SiteReading({ id: target.site.id, organizationId: target.site.organizationId }, target.site.title, target.siteBaseUrl, await this.siteSpaces.of(target), this.store, this.search);
  }
}
