import { Injectable } from '@nestjs/common';
import { Organization } from '../domain/organization';

/**
 * GitBook's `Subdomain`: an organization's default hostname. `isActive` is always true here: this
 * server keeps only the hostnames organizations use now (one given up is free, and answers 404, at once).
 */
@Injectable()
export class SubdomainPresenter {
  present(organization: Organization & { hostname: string }) {
    return {
      object: 'subdomain' as const,
      subdomain: organization.hostname,
      target: { type: 'organization' as const, organization: organization.id },
      isActive: true,
    };
  }
}
