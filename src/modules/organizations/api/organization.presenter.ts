import { Injectable } from '@nestjs/common';
import { Urls } from '@app/common';
import { organizationPermissions } from '../../access/domain/permissions';
import { OrganizationView } from '../application/organizations.service';

/** GitBook's `Organization` object, with permissions from the caller's organization role. */
@Injectable()
export class OrganizationPresenter {
  constructor(private readonly urls: Urls) {}

  present({ organization: o, role }: OrganizationView) {
    return {
      object: 'organization' as const,
      id: o.id,
      title: o.title,
      createdAt: o.createdAt.toISOString(),
      emailDomains: o.emailDomains,
      ...(o.hostname ? { hostname: o.hostname } : {}),
      type: o.type,
      ...(o.useCase ? { useCase: o.useCase } : {}),
      ...(o.communityType ? { communityType: o.communityType } : {}),
      defaultRole: o.defaultRole,
      ...(o.defaultContent ? { defaultContent: o.defaultContent } : {}),
      sso: o.sso,
      ai: o.ai,
      inviteLinks: o.inviteLinks,
      plan: o.plan,
      mergeRules: o.mergeRules,
      urls: {
        location: this.urls.api(`/orgs/${o.id}`),
        app: this.urls.app(`/o/${o.id}`),
        ...(o.logoUrl ? { logo: o.logoUrl } : {}),
      },
      trial: { status: 'notapplicable', count: 0 },
      permissions: organizationPermissions(role),
    };
  }
}
