import { Injectable, OnModuleInit } from '@nestjs/common';
import { EventResources } from '../../events/application/event-resources';
import { SitesService } from '../application/sites.service';
import { SitePresenter } from './site.presenter';

/** How a site appears in webhook payloads: as GET /orgs/{org}/sites/{id} shows it to the webhook's owner. */
@Injectable()
export class SiteEventResource implements OnModuleInit {
  constructor(
    private readonly resources: EventResources,
    private readonly sites: SitesService,
    private readonly presenter: SitePresenter,
  ) {}

  onModuleInit(): void {
    this.resources.register('site', async (ref, viewer) => this.presenter.site(await this.sites.get(viewer, ref.organizationId, ref.id)));
  }
}
