import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { NotFoundError, notModified } from '@app/common';
import { ContentReader } from '../../content/application/content-reader';
import { ContentStore } from '../../content/application/content-store.service';
import { FilesService } from '../../content/application/files.service';
import { Revision } from '../../content/domain/revision';
import { SearchService } from '../../search/application/search.service';
import { Admission, PublishedSitesService, PublishedTarget, SiteBasis, contextId } from '../../sites/application/published-sites.service';
import { VisitorInput, VisitorAuthRequiredError } from '../../sites/domain/visitor';
import { PublishedChanges } from '../../sites';
import { unsignedClaimsFromQuery } from '../../sites/domain/condition';
import { CurrentReference, ReferenceModels } from '../../openapi/application/reference-models';
import { SiteRedirectsService } from '../../site-redirects/application/site-redirects.service';
import { renderOperation } from '../../openapi/domain/render-reference';
import { askScriptHash } from '../domain/ask-box';
import { SiteAgentsService } from '../../agents/application/site-agents.service';
import { InsightsService } from '../../insights/application/insights.service';
import { normalizeQuery, observedEvent, referrerDomain } from '../../insights/domain/site-event';
import { documentOutline, documentText, embeddedSpecs, integrationBlocks, renderDocument, sanitizeFragment } from '../domain/document-html';
import { BLOCK_CACHE_MS, InstalledIntegrationsService, IntegrationRendersService, SiteScript } from '../../integrations';
import { pageCsp } from '../domain/page-csp';
import { PageBlocks } from '../domain/page-blocks';
import { PageIndex } from '../domain/page-index';
import { PageIndexes } from './page-indexes';
import { SiteSpaceIndexes } from './site-space-indexes';
import { renderNotice, renderSitePage, themeScriptHash } from '../domain/site-page-html';
import { BoundedCache } from './bounded-cache';
import { PageIntegrationBlocks } from './page-integration-blocks';
import { SidePages, SEARCH, indexable } from './side-pages';
import { SiteChrome } from './site-chrome';
import { CLAIMS_COOKIE, VISITOR_COOKIE, cookie, parseClaimsCookie, tokenExpiry, tokenMaxAge } from './visitor-cookies';

/** What a reader's request gets back; the HTTP layer writes it as is. */
export interface ReaderResponse {
  status: number;
  headers: Record<string, string | string[]>;
  body: string | Buffer;
  /** What the reader was shown, for site insights (never sent). */
  seen?: SeenPage;
}

/** A page, markdown page or search a reader was shown: recorded as a site insight event. */
interface SeenPage {
  siteId: string;
  type: 'page_view' | 'page_markdown_request' | 'search_type_query';
  siteSectionId: string | null;
  siteSpaceId: string;
  spaceId: string;
  pageId: string | null;
  searchQuery: string | null;
  searchResults: number | null;
}

export interface ReaderRequest {
  url: URL;
  /** Cookies sent with the request. */
  cookies: Record<string, string>;
  /** The raw Cookie header: part of what makes two requests the same request. */
  cookieHeader?: string;
  ifNoneMatch?: string;
  /** The reader's address and browser, hashed with the day's salt for insights (never stored as is). */
  visitor?: string;
  referrer?: string;
}

/** What makes a page answer reusable for the same request. */
interface HotInfo {
  tag: string;
  notModifiedHeaders: Record<string, string>;
  /** A page shown on the strength of a visitor token is served from memory no longer than the token lives. */
  expiresAt: number | null;
  /** What the page was built from, checked against the database on every hit (see PublishedSitesService.unchanged). */
  basis: SiteBasis;
}

interface HotEntry extends HotInfo {
  generation: number;
  response: ReaderResponse;
}

/** Bumped when the HTML this server renders changes, so no ETag from an older renderer still matches. */
const RENDERER_VERSION = '1';
const SPECIAL = new Set(['robots.txt', 'sitemap.xml', 'llms.txt']);
/** What each of the reader's caches may hold. */
const CACHE_BYTES = 64 * 1024 * 1024;


/**
 * The published site for readers: HTML pages rendered on the server from each space's current
 * revision, the pages as markdown, search, sitemap.xml, robots.txt and llms.txt. Addresses are
 * resolved by the sites module exactly as `POST /urls/published` resolves them; what the reader may
 * not see (unpublished, wrong share key, hidden section) is a 404, whatever the address.
 *
 * Repeat views are cheap: the ETag is computed before anything is rendered, from the site's
 * version, the revision shown, the reader's claims and the address, so an unchanged page answers
 * 304, and rendered pages are kept in memory by that tag.
 */
@Injectable()
export class PublishedReader {
  /** Rendered pages by ETag. */
  private readonly rendered = new BoundedCache<Buffer>(CACHE_BYTES);
  /** What each rendered page showed (for insights on the views served from the caches). */
  private readonly seenByTag = new BoundedCache<SeenPage>(CACHE_BYTES);
  /** Whole answers by request (address and cookies), valid while PublishedChanges has not moved. */
  private readonly hot = new BoundedCache<HotEntry>(CACHE_BYTES);
  private readonly csp: string;
  private readonly chrome: SiteChrome;
  private readonly sidePages: SidePages;
  private readonly pageBlocks: PageIntegrationBlocks;

  constructor(
    private readonly published: PublishedSitesService,
    private readonly store: ContentStore,
    private readonly reader: ContentReader,
    private readonly files: FilesService,
    search: SearchService,
    private readonly changes: PublishedChanges,
    private readonly references: ReferenceModels,
    private readonly redirects: SiteRedirectsService,
    private readonly indexes: PageIndexes,
    siteSpaces: SiteSpaceIndexes,
    private readonly insights: InsightsService,
    private readonly agents: SiteAgentsService,
    integrationRenders: IntegrationRendersService,
    private readonly installedIntegrations: InstalledIntegrationsService,
  ) {
    this.chrome = new SiteChrome(published, files);
    this.pageBlocks = new PageIntegrationBlocks(integrationRenders);
    this.sidePages = new SidePages(published, store, search, siteSpaces, this.chrome);
    // Custom fonts load from our download route only.
    const fonts = new URL(this.files.downloadUrl({ storageKey: 'x' })).origin;
    this.csp = `default-src 'none'; style-src 'unsafe-inline'; img-src * data:; font-src ${fonts}; script-src ${themeScriptHash()} ${askScriptHash()}; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'self'`;
  }

  /** The response for a reader's request, or null when the address is not on any site (not ours to answer). */
  async handle(request: ReaderRequest): Promise<ReaderResponse | null> {
    const key = `${request.url.host}${request.url.pathname}${request.url.search}\n${request.cookieHeader ?? ''}`;
    const hot = this.hot.get(key);
    // The change feed alone can arrive after a write another replica has already answered: the site's row decides.
    if (hot && hot.generation === this.changes.generation && this.changes.live && (hot.expiresAt === null || hot.expiresAt > Date.now()) && (await this.published.unchanged(hot.basis))) {
      this.noteSeen(hot.response.seen, request);
      if (notModified(request.ifNoneMatch, hot.tag)) return { status: 304, headers: hot.notModifiedHeaders, body: '' };
      return hot.response;
    }
    // Taken before anything is read: a change committed meanwhile leaves what is built below stale.
    const generation = this.changes.generation;
    const response = await this.build(request);
    if (response?.status === 200 && response.hot && this.changes.live) {
      const { hot: info, ...answer } = response;
      this.hot.set(key, { generation, ...info, response: answer }, answer.body.length);
    }
    this.noteSeen(response?.seen, request);
    return response;
  }

  /** Off the request path: the recorder batches what it is given. */
  private noteSeen(seen: SeenPage | undefined, request: ReaderRequest): void {
    if (!seen) return;
    const { siteId, ...where } = seen;
    const visitor = request.visitor ?? 'unknown';
    const event = observedEvent({
      ...where,
      visitorKey: visitor,
      sessionKey: visitor,
      displayContext: 'site',
      urlPath: request.url.pathname.slice(0, 512),
      referrerDomain: referrerDomain(request.referrer),
    });
    void this.insights.recordServed(siteId, [event]).catch(() => undefined);
  }

  private async build(request: ReaderRequest): Promise<(ReaderResponse & { hot?: HotInfo }) | null> {
    const location = await this.published.locate(request.url);
    if (!location) return null;
    const cookieSuffix = location.site.id;
    const query = Object.fromEntries(request.url.searchParams);
    const fromQuery = request.url.searchParams.get('jwt_token') ?? undefined;
    const fromCookie = request.cookies[`${VISITOR_COOKIE}-${cookieSuffix}`];
    const queryClaims = unsignedClaimsFromQuery(query);
    const cookieClaims = parseClaimsCookie(request.cookies[`${CLAIMS_COOKIE}-${cookieSuffix}`]);
    const visitor: VisitorInput = { jwtToken: fromQuery ?? fromCookie, unsignedClaims: { ...cookieClaims, ...queryClaims } };
    const cookiePath = new URL(location.baseUrl).pathname || '/';

    let admission: Admission;
    try {
      admission = await this.published.admit(location, visitor);
    } catch (error) {
      if (error instanceof VisitorAuthRequiredError) {
        const clear: Record<string, string> = fromCookie ? { 'Set-Cookie': cookie(`${VISITOR_COOKIE}-${cookieSuffix}`, '', cookiePath, 0, request.url) } : {};
        if (error.loginUrl) {
          const login = new URL(error.loginUrl);
          login.searchParams.set('location', request.url.toString());
          return { status: 302, headers: { Location: login.toString(), 'Cache-Control': 'no-store', ...clear }, body: '' };
        }
        return this.notice(401, { siteTitle: location.site.title, title: 'Sign-in required', message: error.message }, clear);
      }
      if (error instanceof NotFoundError) return this.notice(404, { title: 'Page not found', message: 'There is no page at this address.' });
      throw error;
    }

    // A token or claims in the address are kept in cookies, then the address is cleaned (once).
    const keep = Object.keys(queryClaims).length > 0 || (fromQuery && admission.verifiedToken === fromQuery);
    if (keep) {
      const clean = new URL(request.url);
      for (const key of [...clean.searchParams.keys()]) if (key === 'jwt_token' || key.startsWith('visitor.')) clean.searchParams.delete(key);
      const cookies: string[] = [];
      if (fromQuery && admission.verifiedToken === fromQuery) cookies.push(cookie(`${VISITOR_COOKIE}-${cookieSuffix}`, fromQuery, cookiePath, tokenMaxAge(fromQuery), request.url));
      if (Object.keys(queryClaims).length) cookies.push(cookie(`${CLAIMS_COOKIE}-${cookieSuffix}`, JSON.stringify(visitor.unsignedClaims), cookiePath, 7 * 86400, request.url));
      return { status: 302, headers: { Location: clean.toString(), 'Cache-Control': 'no-store', 'Set-Cookie': cookies }, body: '' };
    }
    return this.serve(admission, request);
  }

  /**
   * The ETag is known before anything is read for the page: the site's version moves with every
   * change of its settings, its structure and the spaces it shows (content, titles, deletion), so
   * with the reader's claims and the address it names exactly one rendering.
   */
  private async serve(admission: Admission, request: ReaderRequest): Promise<ReaderResponse & { hot?: HotInfo }> {
    const { site } = admission;
    const indexed = indexable(admission);
    // A preview is not the published site: never kept by a shared cache either.
    const shared = (indexed || site.visibility === 'unlisted') && !admission.preview;
    const tag = `"${createHash('sha256')
      .update([RENDERER_VERSION, site.id, site.version, contextId(admission.context), admission.siteBaseUrl, request.url.pathname, request.url.search].join('|'))
      .digest('base64url')
      .slice(0, 27)}"`;
    const caching = {
      ETag: tag,
      'Cache-Control': shared ? 'public, max-age=0, must-revalidate' : 'private, no-cache',
      Vary: 'Cookie',
      ...(indexed ? {} : { 'X-Robots-Tag': 'noindex' }),
    };
    const notModifiedHeaders = { 'Content-Security-Policy': this.csp, ...caching };
    // What a preview shows follows its viewer's access, which no version here tracks: previews are built on every view.
    const reusable = !admission.preview;
    const basis = { siteId: site.id, version: site.version, shareKey: admission.shareKey };
    const hot = reusable ? { tag, notModifiedHeaders, expiresAt: tokenExpiry(admission.verifiedToken), basis } : undefined;
    const seenBefore = this.seenByTag.get(tag);
    if (reusable && notModified(request.ifNoneMatch, tag)) return { status: 304, headers: notModifiedHeaders, body: '', seen: seenBefore };
    const cached = reusable ? this.rendered.get(tag) : undefined;
    if (cached !== undefined) return { ...this.html(200, cached, caching), hot, seen: seenBefore };

    let target: PublishedTarget;
    try {
      target = await this.published.resolve(admission);
    } catch (error) {
      if (error instanceof NotFoundError) {
        return (await this.redirected(admission, request)) ?? this.notice(404, { siteTitle: site.title, title: 'Page not found', message: 'There is no page at this address.' });
      }
      throw error;
    }
    const { address } = target;
    const pagePath = address.pagePath;
    if (address.segments.length === 0 && SPECIAL.has(pagePath)) return this.sidePages.special(target, pagePath);
    const space = target.spaces.get(address.spaceId)!.space.toState();
    const revision = await this.store.getInSpace(space.id, space.revisionId);
    if (!revision) throw NotFoundError.of('Revision', space.revisionId);
    const index = await this.indexes.of(target.site.organizationId, revision);
    let response: { status: number; body: string; type?: string; pageId?: string; results?: number; query?: string; blocks?: PageBlocks; scripts?: SiteScript[] };
    if (pagePath === SEARCH) response = await this.sidePages.search(target, index, space, request.url.searchParams.get('q') ?? '');
    else if (pagePath.endsWith('.md')) response = await this.sidePages.markdown(index, pagePath.slice(0, -3));
    else response = await this.page(target, index, revision, pagePath, space.language ?? undefined, request.url.searchParams);
    // Members previewing a site are not its readers: previews are not counted.
    const seen: SeenPage | undefined =
      response.status !== 200 || admission.preview
        ? undefined
        : {
            siteId: site.id,
            type: pagePath === SEARCH ? 'search_type_query' : pagePath.endsWith('.md') ? 'page_markdown_request' : 'page_view',
            siteSectionId: address.sectionId,
            siteSpaceId: address.siteSpaceId,
            spaceId: space.id,
            pageId: response.pageId ?? null,
            searchQuery: response.query ? normalizeQuery(response.query) : null,
            searchResults: response.results ?? null,
          };
    if (seen && reusable) this.seenByTag.set(tag, seen, 512);
    if (response.status === 404) {
      const redirect = await this.redirected(admission, request);
      if (redirect) return redirect;
    }
    if (response.type) return { status: response.status, headers: { 'Content-Type': response.type, ...caching }, body: response.body, seen };
    if (response.status !== 200) return this.html(response.status, response.body, { 'Cache-Control': 'no-store' });
    const bytes = Buffer.from(response.body);
    if (response.blocks || response.scripts) return this.withIntegrations(bytes, response, tag, caching, hot, seen);
    if (reusable) this.rendered.set(tag, bytes, bytes.length);
    return { ...this.html(200, bytes, caching), hot, seen };
  }

  private async page(target: PublishedTarget, index: PageIndex, revision: Revision, pagePath: string, lang: string | undefined, params: URLSearchParams): Promise<{ status: number; body: string; pageId?: string; blocks?: PageBlocks; scripts?: SiteScript[] }> {
    const wanted = pagePath.replace(/\/+$/, '');
    const entry = wanted ? index.byPath.get(wanted) ?? index.byPath.get(wanted.toLowerCase()) : index.readingOrder[0];
    if (!entry) return { status: 404, body: renderNotice({ siteTitle: target.site.title, title: 'Page not found', message: `There is no page at “/${wanted}” in this site.` }) };
    const hash = entry.node.documentHash ?? null;
    const body = hash ? ((await this.store.loadDocuments([hash])).get(hash) ?? '') : '';
    const document = this.reader.document(body);
    const href = (path: string) => this.published.hrefOf(target, target.address.sectionId, target.address.siteSpaceId, path);
    const files = new Map(revision.content.files.map((file) => [file.id, file]));
    // The integrations' services answer while the rest of the page is read.
    const [operations, blocks, scripts, assistant] = await Promise.all([
      this.operations(target.site.organizationId, embeddedSpecs(document)),
      this.pageBlocks.render(target.site.organizationId, target.address.spaceId, integrationBlocks(document), params),
      this.installedIntegrations.siteScripts(target.site.organizationId, target.site.id),
      this.agents.assistantOf(target.site.id),
    ]);
    const generated = entry.node.generated;
    const contentHtml = generated ? sanitizeFragment(`<div class="openapi">${generated.html}</div>`) : renderDocument(document, {
      openapiOperation: operations,
      integrationBlocks: blocks?.html,
      pageHref: (pageId, anchor) => {
        const linked = index.byId.get(pageId);
        if (!linked || !linked.path) return null;
        return `${href(linked.path)}${anchor ? `#${encodeURIComponent(anchor)}` : ''}`;
      },
      fileHref: (fileId) => {
        const file = files.get(fileId);
        return file ? this.files.downloadUrl(file) : null;
      },
    });
    const position = index.readingOrder.findIndex((page) => page.node.id === entry.node.id);
    const previous = position > 0 ? index.readingOrder[position - 1] : undefined;
    const next = position >= 0 ? index.readingOrder[position + 1] : undefined;
    const html = renderSitePage({
      siteTitle: target.site.title,
      siteHref: `${target.siteBaseUrl}/`,
      pageTitle: entry.node.title,
      description: entry.node.description || undefined,
      metaDescription: entry.node.description || documentText(document, 160) || undefined,
      canonicalUrl: href(entry.path),
      noindex: !indexable(target),
      lang,
      theme: this.chrome.theme(target),
      sections: this.chrome.sectionTabs(target),
      variants: this.chrome.variants(target),
      sidebar: this.chrome.sidebar(index.tree, index, entry.node.id, href),
      contentHtml,
      outline: documentOutline(document),
      previous: previous ? { title: previous.node.title, href: href(previous.path) } : undefined,
      next: next ? { title: next.node.title, href: href(next.path) } : undefined,
      searchAction: href(SEARCH),
      markdownHref: `${href(entry.path)}.md`,
      askAction: assistant.enabled ? `${target.siteBaseUrl}/~gitbook/ask` : undefined,
      scripts: scripts.map((script) => script.script),
    });
    return { status: 200, body: html, pageId: entry.node.id, ...(blocks ? { blocks } : {}), ...(scripts.length ? { scripts } : {}) };
  }

  /**
   * Where the site's live redirects send a reader who found no page here: 308 for a permanent
   * redirect, else 307; null when none matches. Redirects never hide a page that exists.
   */
  private async redirected(admission: Admission, request: ReaderRequest): Promise<ReaderResponse | null> {
    const base = new URL(admission.siteBaseUrl).pathname.replace(/\/+$/, '');
    const path = request.url.pathname;
    if (!path.startsWith(base)) return null;
    const found = await this.redirects.forReader(admission.site, admission.siteBaseUrl, path.slice(base.length));
    return found ? { status: found.permanent ? 308 : 307, headers: { Location: found.location, 'Cache-Control': 'no-store' }, body: '' } : null;
  }

  /** Renders the embedded operations of the organization's specs, from their current versions. */
  private async operations(organizationId: string, slugs: string[]): Promise<(spec: string, method: string, path: string) => string | null> {
    const references = slugs.length ? await this.references.current(organizationId, slugs) : new Map<string, CurrentReference>();
    return (spec, method, path) => {
      const operation = references.get(spec)?.model.operations.find((op) => op.method.toLowerCase() === method && op.path === path);
      return operation ? renderOperation(operation) : null;
    };
  }

  /**
   * A page with integration blocks or site scripts. What block services answer may change without
   * the site changing, so such a page is reused for BLOCK_CACHE_MS only (its ETag names that
   * window), never when a reader pressed a button (their state is in the address). Its policy lets
   * it frame the blocks' declared hosts and load the scripts from their integrations' sources; the
   * ETag names that policy too, so a revalidation never pairs the page with another one.
   */
  private withIntegrations(bytes: Buffer, page: { blocks?: PageBlocks; scripts?: SiteScript[] }, tag: string, caching: Record<string, string>, hot: HotInfo | undefined, seen: SeenPage | undefined): ReaderResponse & { hot?: HotInfo } {
    const csp = pageCsp(this.csp, { frameHosts: page.blocks?.frameHosts, scriptPolicies: page.scripts?.map((s) => s.contentSecurityPolicy) });
    const window = page.blocks ? `-${Math.floor(Date.now() / BLOCK_CACHE_MS)}` : '';
    const variant = `${tag.slice(0, -1)}${window}-${createHash('sha256').update(csp).digest('base64url').slice(0, 8)}"`;
    const pressed = page.blocks?.pressed ?? false;
    const headers = { ...caching, ETag: variant, 'Content-Security-Policy': csp, ...(pressed ? { 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex' } : {}) };
    const expiresAt = page.blocks ? Math.min(hot?.expiresAt ?? Infinity, Date.now() + BLOCK_CACHE_MS) : (hot?.expiresAt ?? null);
    const reuse = hot && !pressed ? { ...hot, tag: variant, notModifiedHeaders: { ...hot.notModifiedHeaders, ETag: variant, 'Content-Security-Policy': csp }, expiresAt } : undefined;
    return { ...this.html(200, bytes, headers), hot: reuse, seen };
  }

  private html(status: number, body: string | Buffer, headers: Record<string, string>): ReaderResponse {
    return { status, headers: { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': this.csp, ...headers }, body };
  }

  private notice(status: number, view: Parameters<typeof renderNotice>[0], headers: Record<string, string> = {}): ReaderResponse {
    return this.html(status, renderNotice(view), { 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex', ...headers });
  }
}
