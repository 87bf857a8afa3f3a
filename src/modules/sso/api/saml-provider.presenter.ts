import { Injectable } from '@nestjs/common';
import { Urls } from '@app/common';
import { TeamPresenter } from '../../teams/api/team.presenter';
import { SamlProviderView } from '../application/saml-providers.service';
import { SamlProvider, serviceEndpoints } from '../domain/saml-provider';

/**
 * The contract requires `ssoURL` (a URI) even while a provider is `pending` without one; the
 * standard "no document" URI stands in until it is configured.
 */
export const PENDING_SSO_URL = 'about:blank';

/** GitBook's `OrganizationSAMLProvider`, and the `OrganizationSSOProviderLogin` items of GET /orgs/{id}/sso. */
@Injectable()
export class SamlProviderPresenter {
  constructor(
    private readonly urls: Urls,
    private readonly teams: TeamPresenter,
  ) {}

  present({ provider: p, defaultTeam }: SamlProviderView) {
    return {
      object: 'saml-provider' as const,
      id: p.id,
      label: p.label,
      ssoURL: p.ssoUrl ?? PENDING_SSO_URL,
      entityID: p.entityId,
      certificate: p.certificate ?? '',
      ...(defaultTeam ? { defaultTeam: this.teams.present(defaultTeam) } : {}),
      defaultRole: p.defaultRole,
      createdAt: p.createdAt.toISOString(),
      status: p.status,
      service: this.service(p),
      urls: { location: this.urls.api(`/orgs/${p.organizationId}/saml/${p.id}`) },
    };
  }

  presentLogin(p: SamlProvider) {
    return { id: p.id, label: p.label, startURL: this.service(p).startURL };
  }

  private service(p: SamlProvider) {
    return serviceEndpoints(this.urls.root(''), p.id);
  }
}
