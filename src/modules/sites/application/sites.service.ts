import { EventOutbox } from '../../events/application/event-outbox';
import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, ConflictError, InvalidError, NotFoundError, Page, PageRequest, assertIfMatch, newId } from '@app/common';
import { Transactions, Tx } from '../../../database/transactions';
import { StagedJobs } from '../../../jobs/outbox/job-outbox';
import { User } from '../../identity/domain/user';
import { SpacesService } from '../../spaces/application/spaces.service';
import { assertAdaptiveSchema, templateConditions } from '../domain/adaptive-schema';
import { siteRole } from '../domain/site-grant';
import { Customization, applyCustomization, defaultCustomization, siteCustomization } from '../domain/customization';
import {
  AGENTS_CONTEXTS,
  HOSTNAME_PATTERN,
  PROXY_PATTERN,
  SITE_TYPES,
  SITE_VISIBILITIES,
  SiteType,
  SiteVisibility,
  assertBasename,
  assertTitle,
  uniquePath,
} from '../domain/site';
import { SiteOrm } from '../infrastructure/site.orm';
import { SiteSpaceOrm } from '../infrastructure/site-space.orm';
import { SiteFilters, SitesRepository, StructureRows } from '../infrastructure/sites.repository';
import { CustomHostnamesService } from './custom-hostnames.service';
import { SiteAccess, SiteView } from './site-access';
import { SiteStructureService } from './site-structure.service';

export interface SiteListView extends SiteView {
  siteSpaceCount: number;
}

export interface CreateSiteInput {
  type?: unknown;
  title?: unknown;
  visibility?: unknown;
  spaces?: unknown;
}

export interface UpdateSiteInput {
  title?: unknown;
  visibility?: unknown;
  basename?: unknown;
  hostname?: unknown;
  adaptiveContent?: unknown;
  agentsContext?: unknown;
  defaultSiteSpace?: unknown;
  defaultSiteSection?: unknown;
  proxy?: unknown;
}

function oneOf<T extends string>(values: readonly T[], value: unknown, field: string): T {
  if (typeof value !== 'string' || !(values as readonly string[]).includes(value)) throw new InvalidError(`${field}: one of ${values.join(', ')}`);
  return value as T;
}

/** Sites: lifecycle (create, read, patch, delete, publish, unpublish) and settings (adaptive schema, customization). */
@Injectable()
export class SitesService {
  constructor(
    private readonly repository: SitesRepository,
    private readonly siteAccess: SiteAccess,
    private readonly structure: SiteStructureService,
    private readonly spaces: SpacesService,
    private readonly transactions: Transactions,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly outbox: EventOutbox,
    private readonly hostnames: CustomHostnamesService,
  ) {}

  /**
   * For modules that change what a site's pages load (an integration's scripts installed or
   * removed): the sites' pages are rendered anew, as after a change of their own.
   */
  async pagesChanged(change: { siteIds: string[] } | { organizationId: string }, tx?: Tx): Promise<void> {
    if ('siteIds' in change) await this.repository.bumpSites(change.siteIds, tx);
    else await this.repository.bumpVersions(change, tx);
  }

  async list(caller: User, organizationId: string, filters: SiteFilters, request: PageRequest): Promise<Page<SiteListView>> {
    const { orgRole, granted } = await this.siteAccess.visibleSites(caller, organizationId);
    if (filters.types) filters.types.forEach((type) => oneOf(SITE_TYPES, type, 'type'));
    // Guests list the sites shared with them; members every site.
    const page = await this.repository.list(organizationId, { ...filters, onlyIds: orgRole === null ? [...granted.keys()] : undefined }, request);
    const counts = await this.repository.siteSpaceCounts(page.items.map((site) => site.id));
    return { ...page, items: page.items.map((site) => ({ site, role: siteRole(orgRole, granted.get(site.id))!, siteSpaceCount: counts.get(site.id) ?? 0 })) };
  }

  async get(caller: User, organizationId: string, siteId: string): Promise<SiteListView> {
    return this.withCount(await this.siteAccess.read(caller, organizationId, siteId));
  }

  /**
   * Runs `work` in a transaction holding the site's row lock, so writes that belong to one site
   * (its redirects, for one) run one at a time; the site gone meanwhile is a 404.
   */
  inLockedSite<T>(site: SiteOrm, work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.transactions.run(async (tx) => {
      await this.siteAccess.lock(site.organizationId, site.id, tx);
      return work(tx);
    });
  }

  /**
   * The site of a published structure as its caller sees it: a member with their role; a site
   * token's reader, whose structure is already the one it may see, as a reader of it.
   */
  viewOf(caller: User, published: { site: SiteOrm; rows: StructureRows }): Promise<SiteListView> {
    if (caller.siteScope) return Promise.resolve({ site: published.site, role: 'read', siteSpaceCount: published.rows.siteSpaces.length });
    return this.get(caller, published.site.organizationId, published.site.id);
  }

  /** `spaces` become the site's first site spaces (the first is the default); each must be a space of the organization the caller can read. */
  async create(caller: User, organizationId: string, input: CreateSiteInput): Promise<SiteListView> {
    const role = await this.siteAccess.orgRole(caller, organizationId, 'create');
    const type: SiteType = input.type === undefined ? 'basic' : oneOf(SITE_TYPES, input.type, 'type');
    const visibility: SiteVisibility = input.visibility === undefined ? 'public' : oneOf(SITE_VISIBILITIES, input.visibility, 'visibility');
    if (visibility !== 'public' && role !== 'admin') throw new InvalidError('visibility: only organization admins choose an audience other than public');
    const title = input.title === undefined ? 'Docs' : assertTitle(input.title);
    const spaceIds = input.spaces === undefined ? [] : this.spaceIdList(input.spaces);
    const views = await this.spaces.viewsInOrganization(caller, organizationId, spaceIds);
    for (const id of spaceIds) if (!views.get(id)?.role) throw NotFoundError.of('Space', id);
    const now = this.clock.now();
    const site = Object.assign(new SiteOrm(), {
      id: newId(),
      organizationId,
      type,
      title,
      visibility,
      published: false,
      basename: null,
      hostname: null,
      hostnameStatus: null,
      hostnameToken: null,
      hostnameCheckedAt: null,
      proxy: null,
      adaptiveContent: false,
      agentsContext: 'included',
      customization: {},
      adaptiveSchema: null,
      adaptiveSchemaUpdatedAt: null,
      visitorAuthBackend: 'custom',
      visitorAuthFallbackUrl: null,
      visitorAuthKey: null,
      tokenSecret: randomBytes(32).toString('base64url'),
      version: 1,
      styleguideSpaceId: null,
      createdBy: caller.id,
      createdAt: now,
      updatedAt: now,
    });
    const paths: string[] = [];
    const siteSpaces = spaceIds.map((spaceId, i) => {
      const path = uniquePath(views.get(spaceId)!.space.title, paths);
      paths.push(path);
      return Object.assign(new SiteSpaceOrm(), { id: newId(), siteId: site.id, sectionId: null, spaceId, path, condition: null, isDefault: i === 0, position: i, customization: null, createdAt: now });
    });
    await this.transactions.run(async (tx) => {
      await this.repository.insert(site, tx);
      await this.repository.saveAll(siteSpaces, tx);
    });
    return { site, role, siteSpaceCount: siteSpaces.length };
  }

  /** `ifMatch`: the client's `If-Match` header; a tag of an older version of the site is a 412 and nothing changes. */
  async update(caller: User, organizationId: string, siteId: string, input: UpdateSiteInput, ifMatch?: string): Promise<SiteListView> {
    const audience = input.visibility !== undefined || input.hostname !== undefined;
    const role = await this.siteAccess.role(caller, organizationId, siteId, audience ? 'admin' : 'create');
    let staged: StagedJobs | undefined;
    const view = await this.transactions.run(async (tx) => {
      const site = await this.siteAccess.lock(organizationId, siteId, tx);
      assertIfMatch(ifMatch, 'site', site.id, site.version);
      const patch: Partial<SiteOrm> = {};
      if (input.title !== undefined) patch.title = assertTitle(input.title);
      if (input.visibility !== undefined) patch.visibility = oneOf(SITE_VISIBILITIES, input.visibility, 'visibility');
      if (input.agentsContext !== undefined) patch.agentsContext = oneOf(AGENTS_CONTEXTS, input.agentsContext, 'agentsContext');
      if (input.adaptiveContent !== undefined) {
        const value = input.adaptiveContent as { enabled?: unknown } | null;
        if (typeof value !== 'object' || value === null || typeof value.enabled !== 'boolean') throw new InvalidError('adaptiveContent: expected {enabled: boolean}');
        patch.adaptiveContent = value.enabled;
      }
      if (input.basename !== undefined) {
        patch.basename = input.basename === null ? null : assertBasename(input.basename);
        if (patch.basename && (await this.repository.basenameTaken(patch.basename, site.id, tx))) throw new ConflictError(`basename: "${patch.basename}" is used by another site`);
      }
      if (input.hostname !== undefined) {
        if (input.hostname !== null && (typeof input.hostname !== 'string' || input.hostname.length > 253 || !HOSTNAME_PATTERN.test(input.hostname))) {
          throw new InvalidError('hostname: a lower-case host name with at least three labels (docs.example.com), or null');
        }
        const claim = await this.hostnames.claim(site, input.hostname as string | null, tx);
        Object.assign(patch, claim.fields);
        staged = claim.staged;
      }
      if (input.proxy !== undefined) {
        if (input.proxy !== null && (typeof input.proxy !== 'string' || input.proxy.length > 300 || !PROXY_PATTERN.test(input.proxy))) {
          throw new InvalidError('proxy: a host and a path (example.com/docs), or null to remove the proxy');
        }
        patch.proxy = input.proxy as string | null;
      }
      if (input.defaultSiteSpace !== undefined) await this.structure.setDefaultSiteSpace(site, input.defaultSiteSpace, null, tx);
      if (input.defaultSiteSection !== undefined) await this.structure.setDefaultSection(site, input.defaultSiteSection, tx);
      Object.assign(site, patch, { updatedAt: this.clock.now() });
      await this.repository.update(site.id, { ...patch, updatedAt: site.updatedAt }, tx);
      // The row's version moved by one under our lock.
      return { site: Object.assign(site, { version: site.version + 1 }), role };
    });
    await this.hostnames.release(staged);
    return this.withCount(view);
  }

  /** True when a site was deleted; false when there was none (both answer). */
  async delete(caller: User, organizationId: string, siteId: string): Promise<boolean> {
    await this.siteAccess.role(caller, organizationId, siteId, 'admin');
    return this.repository.delete(organizationId, siteId);
  }

  /** Readers can reach the site from the moment this returns (the published pages read the flag on each request). */
  async setPublished(caller: User, organizationId: string, siteId: string, published: boolean): Promise<SiteListView> {
    const role = await this.siteAccess.role(caller, organizationId, siteId, 'admin');
    const view = await this.transactions.run(async (tx) => {
      const site = await this.siteAccess.lock(organizationId, siteId, tx);
      const updatedAt = this.clock.now();
      await this.repository.update(site.id, { published, updatedAt }, tx);
      // Publishing a published site again is no event.
      if (site.published !== published) {
        await this.outbox.record(tx, { type: published ? 'site.published' : 'site.unpublished', organizationId, resource: { kind: 'site', id: site.id } });
      }
      return { site: Object.assign(site, { published, updatedAt }), role };
    });
    return this.withCount(view);
  }

  // Adaptive content ---------------------------------------------------------------------------

  async adaptiveSchema(caller: User, organizationId: string, siteId: string): Promise<{ jsonSchema: Record<string, unknown>; updatedAt: Date }> {
    const { site } = await this.siteAccess.read(caller, organizationId, siteId);
    if (!site.adaptiveSchema || !site.adaptiveSchemaUpdatedAt) throw new NotFoundError(`Site "${siteId}" has no adaptive schema`);
    return { jsonSchema: site.adaptiveSchema, updatedAt: site.adaptiveSchemaUpdatedAt };
  }

  async setAdaptiveSchema(caller: User, organizationId: string, siteId: string, jsonSchema: unknown): Promise<{ jsonSchema: Record<string, unknown>; updatedAt: Date }> {
    const schema = assertAdaptiveSchema(jsonSchema);
    await this.siteAccess.role(caller, organizationId, siteId, 'create');
    return this.transactions.run(async (tx) => {
      const site = await this.siteAccess.lock(organizationId, siteId, tx);
      const updatedAt = this.clock.now();
      await this.repository.update(site.id, { adaptiveSchema: schema, adaptiveSchemaUpdatedAt: updatedAt, updatedAt }, tx);
      return { jsonSchema: schema, updatedAt };
    });
  }

  async templateConditions(caller: User, organizationId: string, siteId: string): Promise<Array<{ description: string; condition: string }>> {
    const { site } = await this.siteAccess.read(caller, organizationId, siteId);
    return site.adaptiveSchema ? templateConditions(site.adaptiveSchema) : [];
  }

  // Customization ------------------------------------------------------------------------------

  async customization(caller: User, organizationId: string, siteId: string): Promise<Customization> {
    const { site } = await this.siteAccess.read(caller, organizationId, siteId);
    return siteCustomization(site);
  }

  async setCustomization(caller: User, organizationId: string, siteId: string, input: unknown): Promise<Customization> {
    await this.siteAccess.role(caller, organizationId, siteId, 'create');
    return this.transactions.run(async (tx) => {
      const site = await this.siteAccess.lock(organizationId, siteId, tx);
      const next = applyCustomization(defaultCustomization(), input);
      const updatedAt = this.clock.now();
      next.updatedAt = updatedAt.toISOString();
      await this.repository.update(site.id, { customization: next, updatedAt }, tx);
      return siteCustomization(Object.assign(site, { customization: next }));
    });
  }

  // ------------------------------------------------------------------------------------------

  private async withCount(view: SiteView): Promise<SiteListView> {
    const counts = await this.repository.siteSpaceCounts([view.site.id]);
    return { ...view, siteSpaceCount: counts.get(view.site.id) ?? 0 };
  }

  private spaceIdList(value: unknown): string[] {
    if (!Array.isArray(value) || value.length > 100 || value.some((id) => typeof id !== 'string' || !id || id.length > 64)) {
      throw new InvalidError('spaces: an array of at most 100 space ids');
    }
    return [...new Set(value as string[])];
  }
}

