import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, NotFoundError, newId } from '@app/common';
import { Tx } from '../../../database/transactions';
import { User } from '../../identity/domain/user';
import { SpaceView, SpacesService } from '../../spaces/application/spaces.service';
import { StyleguideTemplate, styleguideContent, styleguideTemplate } from '../domain/styleguide-templates';
import { SiteOrm } from '../infrastructure/site.orm';
import { SitesRepository } from '../infrastructure/sites.repository';
import { SiteListView } from './sites.service';
import { SiteAccess } from './site-access';

/** Another request gave the site its style guide first: this one's space is rolled back. */
class StyleguideAlreadySet extends Error {}

/** A style guide space and the sites of the organization that use it, for a caller who may see the space. */
export interface OrganizationStyleguide {
  space: SpaceView;
  sites: SiteListView[];
}

/**
 * A site's style guide: an ordinary space of the organization holding the writing rules, which the
 * site names (`site.styleguide`). Creating it is idempotent: a site whose style guide space is still
 * there keeps it; the space and the site's reference to it commit together, and of two requests
 * racing on one site, one space survives.
 */
@Injectable()
export class SiteStyleguideService {
  constructor(
    private readonly repository: SitesRepository,
    private readonly siteAccess: SiteAccess,
    private readonly spaces: SpacesService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** The site's style guide space, made (from `template`, else blank) when it has none or it was deleted. */
  async ensure(caller: User, organizationId: string, siteId: string, input: { template?: unknown }): Promise<SpaceView> {
    await this.siteAccess.orgRole(caller, organizationId, 'create');
    const template = input.template === undefined || input.template === null ? null : styleguideTemplate(input.template);
    const { site } = await this.siteAccess.read(caller, organizationId, siteId);
    const existing = await this.liveStyleguide(site);
    if (existing) return this.spaces.get(caller, existing);
    try {
      const created = await this.create(caller, site, template);
      return this.spaces.get(caller, created);
    } catch (error) {
      if (!(error instanceof StyleguideAlreadySet)) throw error;
      const { site: current } = await this.siteAccess.read(caller, organizationId, siteId);
      return this.spaces.get(caller, current.styleguideSpaceId!);
    }
  }

  /**
   * What a style guide check run of the site needs, for a member who can see the site: its live
   * style guide space (404 when it has none) and the spaces its site spaces show.
   */
  async runTarget(caller: User, organizationId: string, siteId: string): Promise<{ styleguideSpaceId: string; spaceIds: Set<string> }> {
    const { site } = await this.siteAccess.read(caller, organizationId, siteId);
    const styleguideSpaceId = await this.liveStyleguide(site);
    if (!styleguideSpaceId) throw new NotFoundError(`Site "${siteId}" has no style guide: create one first (POST .../styleguide)`);
    const { siteSpaces } = await this.repository.structure(site.id);
    return { styleguideSpaceId, spaceIds: new Set(siteSpaces.map((siteSpace) => siteSpace.spaceId)) };
  }

  /** Locks the site row in `tx` (work on one site's style guide runs takes turns). */
  async lockSite(organizationId: string, siteId: string, tx: Tx): Promise<void> {
    await this.siteAccess.lock(organizationId, siteId, tx);
  }

  /** 404 unless the caller can see the site. */
  async assertSiteVisible(caller: User, organizationId: string, siteId: string): Promise<void> {
    await this.siteAccess.read(caller, organizationId, siteId);
  }

  /** Members only: anyone else gets 404. */
  async assertMember(caller: User, organizationId: string): Promise<void> {
    await this.siteAccess.orgRole(caller, organizationId);
  }

  /** Every style guide space of the organization the caller may see, with the sites using it. */
  async list(caller: User, organizationId: string): Promise<OrganizationStyleguide[]> {
    const role = await this.siteAccess.orgRole(caller, organizationId);
    const sites = await this.repository.sitesWithStyleguide(organizationId);
    const spaceIds = [...new Set(sites.map((site) => site.styleguideSpaceId!))];
    const visible = await this.spaces.viewsInOrganization(caller, organizationId, spaceIds);
    const counts = await this.repository.siteSpaceCounts(sites.map((site) => site.id));
    return spaceIds
      .filter((id) => visible.get(id)?.role)
      .map((id) => ({
        space: visible.get(id)!,
        sites: sites.filter((site) => site.styleguideSpaceId === id).map((site) => ({ site, role, siteSpaceCount: counts.get(site.id) ?? 0 })),
      }));
  }

  /** The site's style guide space id while that space exists (a deleted one no longer counts). */
  private async liveStyleguide(site: SiteOrm): Promise<string | null> {
    if (!site.styleguideSpaceId) return null;
    const live = await this.spaces.viewsInOrganization(null, site.organizationId, [site.styleguideSpaceId]);
    return live.has(site.styleguideSpaceId) ? site.styleguideSpaceId : null;
  }

  private async create(caller: User, site: SiteOrm, template: StyleguideTemplate | null): Promise<string> {
    const initialContent = styleguideContent(template, newId(), this.clock.now().toISOString());
    const { space } = await this.spaces.create(caller, site.organizationId, { title: 'Style guide', initialContent }, async (created, tx) => {
      // Under the site's lock: a style guide set since the read above wins, and this space is not made.
      const locked = await this.siteAccess.lock(site.organizationId, site.id, tx);
      if (locked.styleguideSpaceId && locked.styleguideSpaceId !== site.styleguideSpaceId) throw new StyleguideAlreadySet();
      await this.repository.update(site.id, { styleguideSpaceId: created.id, updatedAt: this.clock.now() }, tx);
    });
    return space.id;
  }
}
