import { Injectable } from '@nestjs/common';
import { Urls } from '@app/common';
import { SiteChannelOrm } from '../infrastructure/site-channel.orm';

/** GitBook's SiteChannel. */
@Injectable()
export class SiteChannelPresenter {
  constructor(private readonly urls: Urls) {}

  present(organizationId: string, channel: SiteChannelOrm) {
    return {
      object: 'site-channel' as const,
      id: channel.id,
      type: channel.type,
      setupSettings: channel.setupSettings,
      // Connecting a channel to its service takes that service's integration, which this server does not run yet.
      status: 'pending' as const,
      role: channel.role,
      // Answers come with the site's assistant (Ask), which is not built yet.
      answers: 0,
      createdAt: channel.createdAt.toISOString(),
      urls: { location: this.urls.api(`/orgs/${organizationId}/sites/${channel.siteId}/channels/${channel.id}`) },
    };
  }
}
