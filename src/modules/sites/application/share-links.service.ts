import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, InvalidError, NotFoundError, Page, PageRequest, newId } from '@app/common';
import { User } from '../../identity/domain/user';
import { hashShareKey, newShareKey } from '../domain/share-key';
import { SiteOrm } from '../infrastructure/site.orm';
import { SiteShareLinkOrm } from '../infrastructure/site-share-link.orm';
import { SitesRepository } from '../infrastructure/sites.repository';
import { SiteAccess } from './site-access';

export interface ShareLinkView {
  site: SiteOrm;
  link: SiteShareLinkOrm;
  /** The secret, only right after creation: it is stored hashed and never shown again. */
  key?: string;
}

function assertName(value: unknown): string {
  if (typeof value !== 'string' || !value.trim() || value.length > 50) throw new InvalidError('name: 1 to 50 characters');
  return value;
}

/** Share links of a site (organization admins). A revoked or deleted link stops working on the next request. */
@Injectable()
export class ShareLinksService {
  constructor(
    private readonly repository: SitesRepository,
    private readonly siteAccess: SiteAccess,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async list(caller: User, organizationId: string, siteId: string, request: PageRequest): Promise<{ site: SiteOrm; page: Page<SiteShareLinkOrm> }> {
    const site = await this.adminSite(caller, organizationId, siteId);
    return { site, page: await this.repository.listShareLinks(site.id, request) };
  }

  async create(caller: User, organizationId: string, siteId: string, name: unknown): Promise<ShareLinkView> {
    const site = await this.adminSite(caller, organizationId, siteId);
    const key = newShareKey();
    const link = Object.assign(new SiteShareLinkOrm(), { id: newId(), siteId: site.id, name: assertName(name), keyHash: hashShareKey(key), active: true, createdAt: this.clock.now() });
    await this.repository.insertShareLink(link);
    return { site, link, key };
  }

  async update(caller: User, organizationId: string, siteId: string, linkId: string, input: { name?: unknown; active?: unknown }): Promise<ShareLinkView> {
    const site = await this.adminSite(caller, organizationId, siteId);
    const link = await this.repository.findShareLink(site.id, linkId);
    if (!link) throw NotFoundError.of('Share link', linkId);
    const patch: Partial<SiteShareLinkOrm> = {};
    if (input.name !== undefined) patch.name = assertName(input.name);
    if (input.active !== undefined) {
      if (typeof input.active !== 'boolean') throw new InvalidError('active: a boolean');
      patch.active = input.active;
    }
    if (!Object.keys(patch).length) throw new InvalidError('Give "name" or "active"');
    await this.repository.updateShareLink(link.id, patch);
    return { site, link: Object.assign(link, patch) };
  }

  async delete(caller: User, organizationId: string, siteId: string, linkId: string): Promise<boolean> {
    const site = await this.adminSite(caller, organizationId, siteId);
    return this.repository.deleteShareLink(site.id, linkId);
  }

  private async adminSite(caller: User, organizationId: string, siteId: string): Promise<SiteOrm> {
    const { site } = await this.siteAccess.read(caller, organizationId, siteId, 'admin');
    return site;
  }
}
