import { Injectable } from '@nestjs/common';
import { Urls } from '@app/common';
import { OrganizationPresenter } from '../../organizations/api/organization.presenter';
import type { OrganizationView } from '../../organizations/application/organizations.service';
import type { IntegrationView } from '../application/integrations.service';
import type { TargetInstallation } from '../application/installations.service';
import type { IntegrationEventOrm } from '../infrastructure/integration-event.orm';
import type { InstallationOrm } from '../infrastructure/installation.orm';
import type { IntegrationOrm } from '../infrastructure/integration.orm';

/** GitBook's Integration, IntegrationInstallation, space and site installations, and IntegrationEvent. */
@Injectable()
export class IntegrationPresenter {
  constructor(
    private readonly urls: Urls,
    private readonly organizations: OrganizationPresenter,
  ) {}

  integration({ integration: i, admin }: IntegrationView, owner: OrganizationView) {
    const m = i.manifest;
    return {
      object: 'integration' as const,
      name: i.name,
      version: i.version,
      title: m.title,
      description: m.description,
      ...(m.summary ? { summary: m.summary } : {}),
      previewImages: m.previewImages,
      target: m.target,
      verified: false,
      visibility: m.visibility,
      scopes: m.scopes,
      categories: m.categories,
      blocks: m.blocks,
      contentSources: m.contentSources,
      configurations: m.configurations,
      externalLinks: m.externalLinks,
      owner: this.organizations.present(owner),
      urls: {
        location: this.urls.api(`/integrations/${i.name}`),
        app: this.urls.app(`/integrations/${i.name}`),
        assets: `${i.endpoint}/assets`,
        publicEndpoint: i.endpoint,
        publicContentEndpoint: i.endpoint,
      },
      permissions: { admin },
      ...(m.contentSecurityPolicy !== undefined ? { contentSecurityPolicy: m.contentSecurityPolicy } : {}),
    };
  }

  installation(integration: IntegrationOrm, n: InstallationOrm, spaces: number) {
    const location = this.urls.api(`/integrations/${integration.name}/installations/${n.id}`);
    return {
      id: n.id,
      status: n.status,
      space_selection: n.spaceSelection,
      site_selection: n.siteSelection,
      spaces,
      configuration: n.configuration,
      createdAt: n.createdAt.toISOString(),
      updatedAt: n.updatedAt.toISOString(),
      urls: { location, app: this.urls.app(`/o/${n.organizationId}/integrations/${integration.name}`), publicEndpoint: integration.endpoint, publicContentEndpoint: integration.endpoint },
      externalIds: n.externalIds,
      target: { organization: n.organizationId },
    };
  }

  target(integration: IntegrationOrm, kind: 'space' | 'site', t: TargetInstallation) {
    const id = kind === 'space' ? (t as { spaceId: string }).spaceId : (t as { siteId: string }).siteId;
    return {
      integration: integration.name,
      installation: t.installationId,
      status: t.status,
      configuration: t.configuration,
      externalIds: t.externalIds,
      urls: { location: this.urls.api(`/integrations/${integration.name}/installations/${t.installationId}/${kind}s/${id}`), publicEndpoint: integration.endpoint, publicContentEndpoint: integration.endpoint },
      [kind]: id,
    };
  }

  event(integration: IntegrationOrm, e: IntegrationEventOrm) {
    return {
      id: e.id,
      integrationId: integration.id,
      ...(e.installationId ? { installationId: e.installationId } : {}),
      createdAt: e.createdAt.toISOString(),
      payload: e.payload,
      // Still being tried counts as not (yet) delivered.
      status: e.status === 'success' ? ('success' as const) : ('failed' as const),
      delivery: { state: e.status, attempts: e.attempts },
    };
  }

  trace(e: IntegrationEventOrm) {
    return { logs: e.logs };
  }
}
