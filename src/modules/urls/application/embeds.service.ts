import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, InvalidError, NotFoundError } from '@app/common';
import { FetchLimits, GuardedFetcher } from '../../../core/outbound/guarded-fetcher';
import { User } from '../../identity/domain/user';
import { SpacesService } from '../../spaces/application/spaces.service';
import { Embed, OEmbedAnswer, PageMetadata, bareLinkEmbed, externalEmbed, siteOf } from '../domain/embed';
import { readHtmlMetadata } from '../infrastructure/html-metadata';
import { ContentAtUrl, ContentByUrlService, parseUrl } from './content-by-url.service';
import { EmbedCache } from './embed-cache';

/** A page's head is near its start: half a megabyte is read at most, whatever the page's size. */
const PAGE_LIMITS: FetchLimits = { maxBytes: 512 * 1024, timeoutMs: 5000, maxRedirects: 3, prefixOnly: true };
const OEMBED_LIMITS: FetchLimits = { maxBytes: 256 * 1024, timeoutMs: 5000, maxRedirects: 2 };
const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);
/** Other sites' embeds are kept 10 minutes (a minute when the page could not be read), 1,000 addresses per process. */
const EXTERNAL_TTL_MS = 10 * 60_000;
const DEGRADED_TTL_MS = 60_000;
const MAX_CACHED = 1000;

/**
 * `GET /urls/embed`: how to show an address. This server's own addresses (app and published) are
 * never fetched: they become a card of the content they name when the caller may see it, and of
 * the bare address otherwise. Other addresses are fetched through the guarded fetcher (public
 * addresses only, bounded time and size): the page's head, then its oEmbed endpoint when it
 * advertises one. A page that cannot be fetched or read still gets a card of the bare address:
 * an embed degrades, it does not fail. Addresses carrying credentials are not fetched. Other
 * sites' embeds are the same for every caller, so each process keeps them a while (EmbedCache).
 */
@Injectable()
export class EmbedsService {
  private readonly external: EmbedCache<Embed>;

  constructor(
    private readonly content: ContentByUrlService,
    private readonly fetcher: GuardedFetcher,
    private readonly spaces: SpacesService,
    @Inject(CLOCK) clock: Clock,
  ) {
    this.external = new EmbedCache(clock, { ttlMs: EXTERNAL_TTL_MS, degradedTtlMs: DEGRADED_TTL_MS, maxEntries: MAX_CACHED });
  }

  /** As `embed`, for a caller who may see the space (`GET /spaces/{spaceId}/embed`). */
  async embedInSpace(caller: User, spaceId: string, url: string): Promise<Embed> {
    await this.spaces.get(caller, spaceId);
    return this.embed(caller, url);
  }

  async embed(caller: User, url: string): Promise<Embed> {
    const parsed = parseUrl(url);
    if (parsed.username || parsed.password) {
      parsed.username = '';
      parsed.password = '';
      return bareLinkEmbed(parsed);
    }
    if (await this.content.isOwn(parsed)) return this.ownEmbed(caller, parsed);
    return this.external.get(parsed.href, async () => {
      const page = await this.pageMetadata(parsed);
      const oembed = page?.oembedUrl ? await this.oembed(page.oembedUrl) : null;
      // A page that could not be read gives a card of the bare address: worth another try soon.
      return { value: externalEmbed(parsed, page, oembed), degraded: page === null };
    });
  }

  private async ownEmbed(caller: User, url: URL): Promise<Embed> {
    let content: ContentAtUrl;
    try {
      content = await this.content.resolve(caller, url.href);
    } catch (error) {
      if (error instanceof NotFoundError) return bareLinkEmbed(url);
      throw error;
    }
    if ('collection' in content) return { type: 'link', title: content.collection.collection.title, site: siteOf(url) };
    const space = content.space.space;
    if (content.page) return { type: 'link', title: String(content.page.title), site: space.title };
    const changeRequest = content.changeRequest?.changeRequest;
    if (changeRequest) return { type: 'link', title: changeRequest.subject || `Change request #${changeRequest.number}`, site: space.title };
    return { type: 'link', title: space.title, site: siteOf(url) };
  }

  /** The page's metadata; null when it cannot be fetched (refused, unreachable, slow, not 200) or is not HTML. */
  private async pageMetadata(url: URL): Promise<PageMetadata | null> {
    try {
      const file = await this.fetcher.fetch(url.href, PAGE_LIMITS);
      if (!HTML_TYPES.has((file.contentType ?? '').toLowerCase())) return null;
      return readHtmlMetadata(file.bytes.toString('utf8'), url);
    } catch (error) {
      if (error instanceof InvalidError) return null;
      throw error;
    }
  }

  private async oembed(endpoint: string): Promise<OEmbedAnswer | null> {
    try {
      const answer: unknown = JSON.parse((await this.fetcher.fetch(endpoint, OEMBED_LIMITS)).bytes.toString('utf8'));
      return answer && typeof answer === 'object' && !Array.isArray(answer) ? (answer as OEmbedAnswer) : null;
    } catch (error) {
      if (error instanceof InvalidError || error instanceof SyntaxError) return null;
      throw error;
    }
  }
}
