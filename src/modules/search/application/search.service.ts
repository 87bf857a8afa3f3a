import { Injectable } from '@nestjs/common';
import { InvalidError, Page, PageRequest, decodeCursor, encodeCursor } from '@app/common';
import { AccessService } from '../../access/application/access.service';
import { User } from '../../identity/domain/user';
import { SiteStructureService } from '../../sites/application/site-structure.service';
import { SiteSearchScope } from '../../sites/domain/search-scope';
import { SpacesService } from '../../spaces/application/spaces.service';
import { SearchQueryParts, splitQuery } from '../../search-index/domain/cjk';
import { excerpt } from '../../search-index/domain/excerpt';
import { textSearchConfig } from '../../search-index/domain/text-search-config';
import { IndexedPageTitle, PageHit, SearchQueriesRepository, SectionHit } from '../infrastructure/search-queries.repository';
import { ContentIndexer } from '../../search-index/application/content-indexer.service';
import { ContentStore } from '../../content/application/content-store.service';
import { hiddenPageIds } from '../../content/domain/revision-content';

/** Sections shown per page result, best first. */
export const SECTIONS_PER_PAGE = 5;
/** Pages shown per space in an organization search, best first. */
export const PAGES_PER_SPACE = 5;

export interface SectionResult {
  /** Heading anchor; '' for the text before the first heading. */
  id: string;
  title: string;
  /** An excerpt of the section's text around the match. */
  body: string;
  /** `ts_rank` of the section: higher is better. */
  score: number;
}

export interface PageResult {
  spaceId: string;
  id: string;
  title: string;
  description: string;
  path: string;
  ancestors: string[];
  /** `ts_rank` of the page: higher is better. */
  score: number;
  /** One-based place among every page the query matches, best first. */
  position: number;
  sections: SectionResult[];
}

export interface SpaceResult {
  id: string;
  title: string;
  /** Its best page's score. */
  score: number;
  pages: PageResult[];
}

/**
 * Full-text search over the current revision of spaces: one space, or every space of an
 * organization the caller can read. Pages are ranked by PostgreSQL's `ts_rank` (title above
 * description and headings above body), ties by id; each comes with its matching sections.
 */
@Injectable()
export class SearchService {
  constructor(
    private readonly spaces: SpacesService,
    private readonly access: AccessService,
    private readonly indexer: ContentIndexer,
    private readonly index: SearchQueriesRepository,
    private readonly sites: SiteStructureService,
    private readonly content: ContentStore,
  ) {}

  async searchSpace(caller: User, spaceId: string, query: string, request: PageRequest): Promise<Page<PageResult>> {
    const { space } = await this.spaces.get(caller, spaceId);
    return this.searchIn(space.toState(), query, request);
  }

  /**
   * For a published site's readers, who have no account: the site already decided they may read
   * this space (it is published in the site and its condition holds for them).
   */
  searchPublishedSpace(space: { id: string; revisionId: string; language: string | null }, query: string, request: PageRequest): Promise<Page<PageResult>> {
    return this.searchIn(space, query, request);
  }

  private async searchIn(space: { id: string; revisionId: string; language: string | null }, query: string, request: PageRequest): Promise<Page<PageResult>> {
    const parts = parseQuery(query);
    const cursor = decodeRankCursor(request.page);
    await this.indexer.ensureCurrent(space.id, space.revisionId, space.language);
    if (isEmpty(parts)) return { items: [], count: 0 };

    const { hits, total } = await this.index.searchSpace(
      space.id,
      textSearchConfig(space.language),
      parts,
      cursor ? { rank: cursor.rank, pageId: cursor.id } : null,
      request.limit + 1,
    );
    const hasMore = hits.length > request.limit;
    const shown = hasMore ? hits.slice(0, request.limit) : hits;
    const items = await this.withSections(shown, parts);
    const last = shown[shown.length - 1];
    return { items, count: total, next: hasMore && last ? encodeCursor([last.rank, last.pageId]) : undefined };
  }

  async searchOrganization(caller: User, organizationId: string, query: string, request: PageRequest): Promise<Page<SpaceResult>> {
    return this.searchSpaces(caller, organizationId, parseQuery(query), request);
  }

  /**
   * A site's spaces in `scope` that the caller can read, as an organization search shows them. The
   * site's visibility and audiences do not widen what an API caller reads: they concern its readers.
   */
  async searchSite(caller: User, organizationId: string, siteId: string, query: string, scope: SiteSearchScope, request: PageRequest): Promise<Page<SpaceResult>> {
    if (caller.siteScope) return this.searchSiteAsReader(caller, organizationId, siteId, query, scope);
    const parts = parseQuery(query);
    const spaceIds = await this.sites.spacesInSearchScope(caller, organizationId, siteId, scope);
    return this.searchSpaces(caller, organizationId, parts, request, spaceIds);
  }

  /**
   * A published site's reader (a site token, as GitBook's renderer calls it): the published spaces of
   * its site in `scope` that the reader sees, each with its best pages. Hidden pages, and everything
   * under them, are left out, as in every other place a reader looks.
   */
  private async searchSiteAsReader(caller: User, organizationId: string, siteId: string, query: string, scope: SiteSearchScope): Promise<Page<SpaceResult>> {
    const results: SpaceResult[] = [];
    for (const space of await this.sites.readerSpacesInScope(caller, organizationId, siteId, scope)) {
      // More than shown: hidden pages are dropped after ranking.
      const found = await this.searchIn(space, query, { limit: PAGES_PER_SPACE * 4 });
      if (found.items.length === 0) continue;
      const hidden = await this.hiddenPages(space.id, space.revisionId);
      const pages = found.items.filter((page) => !hidden.has(page.id)).slice(0, PAGES_PER_SPACE);
      if (pages.length) results.push({ id: space.id, title: space.title, score: pages[0].score, pages });
    }
    results.sort((a, b) => b.score - a.score);
    return { items: results, count: results.length };
  }

  /** Titles of the pages (`space/page` keys) for a use case that checked who may see them (a site's scan). */
  titlesOf(pages: Array<{ spaceId: string; pageId: string }>): Promise<Map<string, { title: string; path: string }>> {
    return this.index.titlesOf(pages);
  }

  /** Titles of the shallowest pages of the organization's spaces the caller can read (see SearchQueriesRepository.pageTitles). */
  async pageTitlesInOrganization(caller: User, organizationId: string, limit: number): Promise<IndexedPageTitle[]> {
    const context = await this.access.requireMember(caller, organizationId);
    for (const spaceId of await this.index.staleSpaces(organizationId, context.spaceVisibility())) await this.indexer.sync(spaceId);
    return this.index.pageTitles(organizationId, context.spaceVisibility(), undefined, limit);
  }

  /** The same over a site's spaces in `scope` the caller can read; hidden pages left out for its readers. */
  async pageTitlesInSite(caller: User, organizationId: string, siteId: string, scope: SiteSearchScope, limit: number): Promise<IndexedPageTitle[]> {
    if (!caller.siteScope) {
      const context = await this.access.requireMember(caller, organizationId);
      const spaceIds = await this.sites.spacesInSearchScope(caller, organizationId, siteId, scope);
      for (const spaceId of await this.index.staleSpaces(organizationId, context.spaceVisibility(), spaceIds)) await this.indexer.sync(spaceId);
      return this.index.pageTitles(organizationId, context.spaceVisibility(), spaceIds, limit);
    }
    const spaces = await this.sites.readerSpacesInScope(caller, organizationId, siteId, scope);
    for (const spaceId of await this.index.staleSpaces(organizationId, null, spaces.map((s) => s.id))) await this.indexer.sync(spaceId);
    const titles = await this.index.pageTitles(organizationId, null, spaces.map((s) => s.id), limit * 2);
    const hidden = new Map<string, Set<string>>();
    for (const space of spaces) hidden.set(space.id, await this.hiddenPages(space.id, space.revisionId));
    return titles.filter((t) => !hidden.get(t.spaceId)?.has(t.pageId)).slice(0, limit);
  }

  /** Pages of the revision that are hidden, or under a hidden page. */
  private async hiddenPages(spaceId: string, revisionId: string): Promise<Set<string>> {
    const revision = await this.content.getInSpace(spaceId, revisionId);
    return hiddenPageIds(revision?.content.pages ?? []);
  }

  /** Nothing to warm (the index follows each space's current revision); the caller must see the site. */
  async prewarmSite(caller: User, organizationId: string, siteId: string): Promise<void> {
    await this.sites.assertVisible(caller, organizationId, siteId);
  }

  private async searchSpaces(caller: User, organizationId: string, parts: SearchQueryParts, request: PageRequest, only?: string[]): Promise<Page<SpaceResult>> {
    const context = await this.access.requireMember(caller, organizationId);
    const cursor = decodeRankCursor(request.page);
    const visibility = context.spaceVisibility();
    for (const spaceId of await this.index.staleSpaces(organizationId, visibility, only)) await this.indexer.sync(spaceId);
    if (isEmpty(parts)) return { items: [], count: 0 };

    const { spaces, total } = await this.index.searchOrganization(
      organizationId,
      visibility,
      parts,
      cursor ? { rank: cursor.rank, spaceId: cursor.id } : null,
      request.limit + 1,
      PAGES_PER_SPACE,
      only,
    );
    const hasMore = spaces.length > request.limit;
    const shown = hasMore ? spaces.slice(0, request.limit) : spaces;
    const pages = await this.withSections(
      shown.flatMap((s) => s.pages),
      parts,
    );
    const bySpace = new Map<string, PageResult[]>();
    for (const page of pages) bySpace.set(page.spaceId, [...(bySpace.get(page.spaceId) ?? []), page]);
    const items = shown.map((s) => ({ id: s.spaceId, title: s.title, score: s.rank, pages: bySpace.get(s.spaceId) ?? [] }));
    const last = shown[shown.length - 1];
    return { items, count: total, next: hasMore && last ? encodeCursor([last.rank, last.spaceId]) : undefined };
  }

  private async withSections(hits: PageHit[], parts: SearchQueryParts): Promise<PageResult[]> {
    const sections = await this.index.matchingSections(
      hits.map((h) => ({ spaceId: h.spaceId, pageId: h.pageId })),
      parts,
    );
    return hits.map((hit) => ({
      spaceId: hit.spaceId,
      id: hit.pageId,
      title: hit.title,
      description: hit.description,
      path: hit.path,
      ancestors: hit.ancestors,
      score: hit.rank,
      position: hit.position,
      sections: bestSections(sections.get(`${hit.spaceId}/${hit.pageId}`) ?? []).map((s) => ({
        id: s.sectionId,
        title: s.title || hit.title,
        body: excerpt(s.body, s.lexemes, parts.cjkRuns),
        score: s.rank,
      })),
    }));
  }
}

/** The sections shown for a page: whole-query matches first, then by rank, then in page order. */
export function bestSections(hits: SectionHit[]): SectionHit[] {
  return [...hits]
    .sort((a, b) => Number(b.full) - Number(a.full) || b.rank - a.rank || a.position - b.position)
    .slice(0, SECTIONS_PER_PAGE);
}

function parseQuery(query: string): SearchQueryParts {
  const trimmed = (query ?? '').trim();
  if (!trimmed) throw new InvalidError('query: must not be empty');
  return splitQuery(trimmed);
}

/** A query made only of punctuation matches nothing. */
function isEmpty(parts: SearchQueryParts): boolean {
  return !/[\p{L}\p{N}]/u.test(parts.text) && parts.cjkTokens.length === 0;
}

function decodeRankCursor(page: string | undefined): { rank: number; id: string } | null {
  const cursor = decodeCursor(page, 2);
  if (!cursor) return null;
  const [rank, id] = cursor;
  if (typeof rank !== 'number' || !Number.isFinite(rank) || typeof id !== 'string') throw new InvalidError('Invalid "page" cursor');
  return { rank, id };
}
