import { Injectable } from '@nestjs/common';
import { InvalidError } from '@app/common';
import { assertRole } from '../../access/application/access.service';
import { User } from '../../identity/domain/user';
import { parsePreviewClaims } from '../domain/preview-claims';
import { PublishedSitesService } from './published-sites.service';
import { SiteAccess } from './site-access';

/**
 * GitBook's site preview: an address, valid for an hour, that shows the site as its readers would
 * see it, before it is published or whatever its audience, to a visitor with the given claims.
 * For members who may edit the site (organization role `create`): a preview shows the spaces of the
 * site they may read themselves, checked again on every view.
 */
@Injectable()
export class SitePreviewService {
  constructor(
    private readonly siteAccess: SiteAccess,
    private readonly published: PublishedSitesService,
  ) {}

  async previewUrl(caller: User, organizationId: string, siteId: string, input: { siteSpace?: string; claims?: string }): Promise<{ url: string }> {
    const claims = parsePreviewClaims(input.claims);
    const { site, role } = await this.siteAccess.read(caller, organizationId, siteId);
    assertRole(role, 'create', 'organization');
    const url = await this.published.previewAddress(site, claims, caller, input.siteSpace);
    if (!url) throw new InvalidError(`siteSpace: the site has no site space "${input.siteSpace}"`);
    return { url };
  }
}
