import { Injectable } from '@nestjs/common';
import { Urls } from '@app/common';
import { challengeName } from '../domain/custom-hostname';
import { SiteOrm } from '../infrastructure/site.orm';

/** GitBook's CustomHostname, with the DNS record that proves the claim while it is not proved yet. */
@Injectable()
export class CustomHostnamePresenter {
  constructor(private readonly urls: Urls) {}

  present(site: SiteOrm) {
    const hostname = site.hostname!;
    const live = site.hostnameStatus === 'live';
    return {
      object: 'custom-hostname' as const,
      hostname,
      target: { type: 'site' as const, site: site.id },
      isActive: live,
      // `pending` (not checked yet) is not one of GitBook's statuses: it is left out until the first check.
      ...(site.hostnameStatus && site.hostnameStatus !== 'pending' ? { status: site.hostnameStatus } : {}),
      ...(!live && site.hostnameToken ? { verification: { type: 'TXT' as const, name: challengeName(hostname), value: site.hostnameToken } } : {}),
      ...(site.hostnameCheckedAt ? { checkedAt: site.hostnameCheckedAt.toISOString() } : {}),
      urls: { location: this.urls.api(`/custom-hostnames/${hostname}`) },
    };
  }
}
