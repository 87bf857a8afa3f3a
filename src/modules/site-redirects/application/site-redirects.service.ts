import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, ConflictError, InvalidError, NotFoundError, Page, PageRequest, newId } from '@app/common';
import { Tx } from '../../../database/transactions';
import { assertRole } from '../../access/application/access.service';
import { ContentReader } from '../../content/application/content-reader';
import { ContentStore } from '../../content/application/content-store.service';
import { User } from '../../identity/domain/user';
import { PublishedSitesService } from '../../sites/application/published-sites.service';
import { SitesService } from '../../sites/application/sites.service';
import type { SiteRecord } from '../../sites';
import { SpacesService } from '../../spaces/application/spaces.service';
import { RedirectDestination, RedirectInputDestination, matchRedirect, parseDestination, parseSource, readerPath, withSuffix } from '../domain/site-redirect';
import { SiteRedirectOrm } from '../infrastructure/site-redirect.orm';
import { RedirectOrder, SiteRedirectsRepository } from '../infrastructure/site-redirects.repository';

/** A site holds at most this many redirects (live and draft): the search and the wildcard match scan a site's. */
export const MAX_REDIRECTS_PER_SITE = 10_000;

export interface RedirectInput {
  source?: unknown;
  destination?: unknown;
  draft?: unknown;
  captureWildcard?: unknown;
  permanent?: unknown;
}

export interface BulkRedirectInput extends RedirectInput {
  intent?: unknown;
}

export type BulkResult =
  | { status: 'created' | 'updated' | 'published'; source: string; draft: boolean; id: string }
  | { status: 'deleted'; source: string; draft: boolean }
  | { status: 'error'; source: string; draft: boolean; error: string };

/** One bulk item, checked and its destination resolved before the transaction. */
type PlannedItem =
  | { kind: 'publish'; source: string }
  | { kind: 'delete'; source: string; draft: boolean }
  | { kind: 'upsert'; source: string; draft: boolean; destination: RedirectDestination; captureWildcard: boolean; permanent?: boolean }
  | { kind: 'error'; source: string; draft: boolean; error: string };

/**
 * A site's redirects (GitBook's site redirects): members read them; `create` members write them,
 * as they edit the site's structure. A source has one live and one draft redirect at most; writes
 * of one site run one at a time (the site's row lock), so the limit and uniqueness hold under
 * races. Destinations are checked against the site when written: its sections and site spaces,
 * and pages of those spaces' current content (a `path` destination is stored as the page it
 * names). Readers who find no page at a path are sent by the live redirect matching it.
 */
@Injectable()
export class SiteRedirectsService {
  constructor(
    private readonly repository: SiteRedirectsRepository,
    private readonly sites: SitesService,
    private readonly published: PublishedSitesService,
    private readonly spaces: SpacesService,
    private readonly store: ContentStore,
    private readonly reader: ContentReader,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async list(caller: User, organizationId: string, siteId: string, filters: { draft: boolean; search?: string; orderBy: RedirectOrder }, request: PageRequest): Promise<Page<SiteRedirectOrm>> {
    const { site } = await this.sites.get(caller, organizationId, siteId);
    return this.repository.list(site.id, filters, request);
  }

  async create(caller: User, organizationId: string, siteId: string, input: RedirectInput): Promise<SiteRedirectOrm> {
    const site = await this.editable(caller, organizationId, siteId);
    const source = parseSource(input.source);
    const draft = flag(input.draft, 'draft') ?? false;
    const captureWildcard = flag(input.captureWildcard, 'captureWildcard') ?? false;
    const permanent = flag(input.permanent, 'permanent') ?? false;
    const destination = await this.destination(site, parseDestination(input.destination));
    return this.sites.inLockedSite(site, async (tx) => {
      if (await this.repository.findBySource(site.id, draft, source, tx)) throw new ConflictError(`A ${draft ? 'draft' : 'live'} redirect from "${source}" already exists`);
      await this.assertRoom(site.id, 1, tx);
      const now = this.clock.now();
      const row = Object.assign(new SiteRedirectOrm(), { id: newId(), siteId: site.id, source, draft, captureWildcard, permanent, destination, createdAt: now, updatedAt: null, changedAt: now });
      await this.repository.insert(row, tx);
      return row;
    });
  }

  async update(caller: User, organizationId: string, siteId: string, redirectId: string, input: RedirectInput): Promise<SiteRedirectOrm> {
    const site = await this.editable(caller, organizationId, siteId);
    const source = input.source === undefined ? undefined : parseSource(input.source);
    const draft = flag(input.draft, 'draft');
    const captureWildcard = flag(input.captureWildcard, 'captureWildcard');
    const permanent = flag(input.permanent, 'permanent');
    const destination = input.destination === undefined ? undefined : await this.destination(site, parseDestination(input.destination));
    return this.sites.inLockedSite(site, async (tx) => {
      const row = await this.repository.find(site.id, redirectId, tx);
      if (!row) throw NotFoundError.of('Site redirect', redirectId);
      const next = { source: source ?? row.source, draft: draft ?? row.draft };
      const taken = await this.repository.findBySource(site.id, next.draft, next.source, tx);
      if (taken && taken.id !== row.id) throw new ConflictError(`A ${next.draft ? 'draft' : 'live'} redirect from "${next.source}" already exists`);
      const now = this.clock.now();
      Object.assign(row, next, {
        ...(captureWildcard !== undefined ? { captureWildcard } : {}),
        ...(permanent !== undefined ? { permanent } : {}),
        ...(destination ? { destination } : {}),
        updatedAt: now,
        changedAt: now,
      });
      await this.repository.save(row, tx);
      return row;
    });
  }

  async delete(caller: User, organizationId: string, siteId: string, redirectId: string): Promise<boolean> {
    const site = await this.editable(caller, organizationId, siteId);
    return this.sites.inLockedSite(site, (tx) => this.repository.delete(site.id, redirectId, tx));
  }

  /**
   * Up to 500 operations, each answered on its own (`error` with the reason for one that cannot
   * be done), applied together in one transaction: `live` or `draft` upserts the redirect of that
   * source (a null destination deletes it), `publish` makes the draft of a source its live
   * redirect.
   */
  async bulkUpsert(caller: User, organizationId: string, siteId: string, items: BulkRedirectInput[]): Promise<BulkResult[]> {
    const site = await this.editable(caller, organizationId, siteId);
    // What the request's schema says (a source's form, an intent's values) refuses the request whole.
    items.forEach((item, i) => {
      if (!item || typeof item !== 'object') throw new InvalidError(`redirects[${i}] must be an object`);
      parseSource(item.source, `redirects[${i}].source`);
      if (item.intent !== undefined && !['live', 'draft', 'publish'].includes(item.intent as string)) throw new InvalidError(`redirects[${i}].intent must be one of live, draft, publish`);
    });
    const planned: PlannedItem[] = [];
    for (const item of items) planned.push(await this.plan(site, item));
    return this.sites.inLockedSite(site, async (tx) => {
      const results: BulkResult[] = [];
      for (const item of planned) results.push(await this.apply(site, item, tx));
      return results;
    });
  }

  /**
   * The live redirect of exactly this source, and the address it sends readers to now; for
   * members, and for the site's own reader token (a renderer asking where a missing page went).
   */
  async bySource(caller: User, organizationId: string, siteId: string, source: unknown): Promise<{ redirect: SiteRedirectOrm; target: string }> {
    const { site } = caller.siteScope ? await this.published.forCaller(caller, organizationId, siteId) : await this.sites.get(caller, organizationId, siteId);
    const row = await this.repository.findBySource(site.id, false, parseSource(source));
    if (!row) throw new NotFoundError('No live redirect from this source');
    const base = this.published.siteUrl(site);
    return { redirect: row, target: (await this.target(site, base, row.destination, '')) ?? `${base}/` };
  }

  /**
   * For readers of a published site who found no page at `pathname` (relative to the site's
   * base): the address the live redirect matching it sends them to, with a captured wildcard
   * suffix when the redirect asks for it; null when none matches or its destination is gone.
   */
  async forReader(site: SiteRecord, baseUrl: string, pathname: string): Promise<{ location: string; permanent: boolean } | null> {
    const path = readerPath(pathname);
    const match = matchRedirect(await this.repository.candidates(site.id, path), path);
    if (!match) return null;
    const location = await this.target(site, baseUrl, match.redirect.destination, match.redirect.captureWildcard ? match.suffix : '');
    return location ? { location, permanent: match.redirect.permanent } : null;
  }

  // ------------------------------------------------------------------------------------------

  private async editable(caller: User, organizationId: string, siteId: string): Promise<SiteRecord> {
    const { site, role } = await this.sites.get(caller, organizationId, siteId);
    assertRole(role, 'create', 'organization');
    return site;
  }

  private async assertRoom(siteId: string, adding: number, tx: Tx): Promise<void> {
    if ((await this.repository.count(siteId, tx)) + adding > MAX_REDIRECTS_PER_SITE) {
      throw new ConflictError(`A site holds at most ${MAX_REDIRECTS_PER_SITE} redirects`);
    }
  }

  /** Checks an input destination against the site; a `path` becomes the page it names. */
  private async destination(site: SiteRecord, input: RedirectInputDestination): Promise<RedirectDestination> {
    switch (input.kind) {
      case 'external':
        return input;
      case 'site-section':
        if (!(await this.published.addressIn(site, this.published.siteUrl(site), { sectionId: input.siteSectionId }))) throw new InvalidError('destination.siteSectionId: not a section of this site');
        return input;
      case 'site-space':
        if (!(await this.published.siteSpaceOf(site, input.siteSpaceId))) throw new InvalidError('destination.siteSpaceId: not a site space of this site');
        return input;
      case 'site-page': {
        const siteSpace = await this.published.siteSpaceOf(site, input.siteSpaceId);
        if (!siteSpace) throw new InvalidError('destination.siteSpaceId: not a site space of this site');
        if (!(await this.pagePath(site, siteSpace.spaceId, input.pageId))) throw new InvalidError('destination.pageId: no such page in the site space');
        return input;
      }
      case 'path': {
        const siteSpace = await this.published.siteSpaceShowing(site, input.spaceId);
        if (!siteSpace) throw new InvalidError('destination.spaceId: not a space of this site');
        const revision = await this.currentRevision(site, input.spaceId);
        const page = revision ? this.reader.findPageByPath(revision, input.path) : null;
        if (!page) throw new InvalidError(`destination.path: no page at "${input.path}" in that space`);
        return { kind: 'site-page', siteSpaceId: siteSpace.id, pageId: page.id };
      }
    }
  }

  /** The page's path in the current content of the space; null when it has no such page. */
  private async pagePath(site: SiteRecord, spaceId: string, pageId: string): Promise<string | null> {
    const revision = await this.currentRevision(site, spaceId);
    return revision ? (this.reader.findPage(revision, pageId)?.path ?? null) : null;
  }

  private async currentRevision(site: SiteRecord, spaceId: string) {
    const view = (await this.spaces.viewsInOrganization(null, site.organizationId, [spaceId])).get(spaceId);
    return view ? this.store.getInSpace(spaceId, view.space.revisionId) : null;
  }

  /** Where a destination is now, under `base`; null when its section, site space or page is gone. */
  private async target(site: SiteRecord, base: string, destination: RedirectDestination, suffix: string): Promise<string | null> {
    let address: string | null;
    switch (destination.kind) {
      case 'external':
        address = destination.url;
        break;
      case 'site-section':
        address = await this.published.addressIn(site, base, { sectionId: destination.siteSectionId });
        break;
      case 'site-space':
        address = await this.published.addressIn(site, base, { siteSpaceId: destination.siteSpaceId });
        break;
      case 'site-page': {
        const siteSpace = await this.published.siteSpaceOf(site, destination.siteSpaceId);
        const path = siteSpace ? await this.pagePath(site, siteSpace.spaceId, destination.pageId) : null;
        // A page deleted since leaves its site space's root.
        address = siteSpace ? await this.published.addressIn(site, base, { siteSpaceId: siteSpace.id, pagePath: path ?? '' }) : null;
        break;
      }
    }
    return address && withSuffix(address, suffix);
  }

  /** An item whose source and intent were checked: what to do, or why it cannot be done. */
  private async plan(site: SiteRecord, item: BulkRedirectInput): Promise<PlannedItem> {
    const source = item.source as string;
    const intent = item.intent ?? 'live';
    const draft = intent === 'draft';
    try {
      if (intent === 'publish') return { kind: 'publish', source };
      if (item.destination === null) return { kind: 'delete', source, draft };
      const destination = await this.destination(site, parseDestination(item.destination));
      const captureWildcard = flag(item.captureWildcard, 'captureWildcard') ?? false;
      const permanent = flag(item.permanent, 'permanent');
      return { kind: 'upsert', source, draft, destination, captureWildcard, ...(permanent !== undefined ? { permanent } : {}) };
    } catch (error) {
      if (error instanceof InvalidError) return { kind: 'error', source, draft, error: error.message };
      throw error;
    }
  }

  private async apply(site: SiteRecord, item: PlannedItem, tx: Tx): Promise<BulkResult> {
    const now = this.clock.now();
    switch (item.kind) {
      case 'error':
        return { status: 'error', source: item.source, draft: item.draft, error: item.error };
      case 'delete': {
        const existing = await this.repository.findBySource(site.id, item.draft, item.source, tx);
        if (!existing) return { status: 'error', source: item.source, draft: item.draft, error: `No ${item.draft ? 'draft' : 'live'} redirect from this source` };
        await this.repository.delete(site.id, existing.id, tx);
        return { status: 'deleted', source: item.source, draft: item.draft };
      }
      case 'upsert': {
        const existing = await this.repository.findBySource(site.id, item.draft, item.source, tx);
        const fields = { destination: item.destination, captureWildcard: item.captureWildcard, ...(item.permanent !== undefined ? { permanent: item.permanent } : {}) };
        if (existing) {
          await this.repository.save(Object.assign(existing, fields, { updatedAt: now, changedAt: now }), tx);
          return { status: 'updated', source: item.source, draft: item.draft, id: existing.id };
        }
        if ((await this.repository.count(site.id, tx)) >= MAX_REDIRECTS_PER_SITE) {
          return { status: 'error', source: item.source, draft: item.draft, error: `A site holds at most ${MAX_REDIRECTS_PER_SITE} redirects` };
        }
        const row = Object.assign(new SiteRedirectOrm(), { id: newId(), siteId: site.id, source: item.source, draft: item.draft, permanent: false, ...fields, createdAt: now, updatedAt: null, changedAt: now });
        await this.repository.insert(row, tx);
        return { status: 'created', source: item.source, draft: item.draft, id: row.id };
      }
      case 'publish': {
        const draft = await this.repository.findBySource(site.id, true, item.source, tx);
        if (!draft) return { status: 'error', source: item.source, draft: false, error: 'No draft redirect from this source to publish' };
        const live = await this.repository.findBySource(site.id, false, item.source, tx);
        const fields = { destination: draft.destination, captureWildcard: draft.captureWildcard, permanent: draft.permanent };
        await this.repository.delete(site.id, draft.id, tx);
        if (live) {
          await this.repository.save(Object.assign(live, fields, { updatedAt: now, changedAt: now }), tx);
          return { status: 'published', source: item.source, draft: false, id: live.id };
        }
        const row = Object.assign(new SiteRedirectOrm(), { id: newId(), siteId: site.id, source: item.source, draft: false, ...fields, createdAt: now, updatedAt: null, changedAt: now });
        await this.repository.insert(row, tx);
        return { status: 'published', source: item.source, draft: false, id: row.id };
      }
    }
  }
}

function flag(value: unknown, field: string): boolean | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') throw new InvalidError(`${field} must be a boolean`);
  return value;
}
