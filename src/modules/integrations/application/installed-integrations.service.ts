import { Injectable } from '@nestjs/common';
import { InvalidError, NotFoundError, Page, PageRequest, pageInMemory } from '@app/common';
import { AccessService } from '../../access/application/access.service';
import type { User } from '../../identity/domain/user';
import { SitesService } from '../../sites/application/sites.service';
import { SpacesService } from '../../spaces/application/spaces.service';
import { cspDirectives, safeSources } from '../domain/integration-manifest';
import { InstallationOrm } from '../infrastructure/installation.orm';
import { InstallationsRepository } from '../infrastructure/installations.repository';
import { IntegrationOrm } from '../infrastructure/integration.orm';
import { IntegrationsRepository } from '../infrastructure/integrations.repository';
import { IntegrationView } from './integrations.service';

export interface InstalledIntegration {
  status: string;
  integration: IntegrationView;
  target: { type: 'organization'; organizationId: string } | { type: 'space'; spaceId: string } | { type: 'site'; siteId: string };
}

/** A script an installed integration adds to a site's pages, and the sources it may load from. */
export interface SiteScript {
  integration: string;
  script: string;
  origin: string;
  contentSecurityPolicy: string;
  cookies: boolean;
}

/**
 * What is installed where, as members see it: an organization's integrations and their status,
 * a space's or a site's integrations, a space's blocks, a site's scripts.
 */
@Injectable()
export class InstalledIntegrationsService {
  constructor(
    private readonly integrations: IntegrationsRepository,
    private readonly installations: InstallationsRepository,
    private readonly access: AccessService,
    private readonly spaces: SpacesService,
    private readonly sites: SitesService,
  ) {}

  async assertMember(caller: User, organizationId: string): Promise<void> {
    await this.access.requireMember(caller, organizationId);
  }

  /** listOrganizationInstallations: the organization's installations with their integrations (its admins: configurations are settings). */
  async organizationInstallations(caller: User, organizationId: string, search: string | undefined, request: PageRequest): Promise<Page<{ installation: InstallationOrm; integration: IntegrationView; spaces: number }>> {
    await this.access.requireOrgRole(caller, organizationId, 'admin');
    const installations = await this.installations.inOrganization(organizationId);
    const byId = new Map((await this.integrations.findByIds([...new Set(installations.map((n) => n.integrationId))])).map((i) => [i.id, i]));
    const counts = await this.installations.countSpaces(installations.map((n) => n.id));
    const items = installations
      .map((installation) => ({ installation, integration: { integration: byId.get(installation.integrationId)!, admin: false }, spaces: counts.get(installation.id) ?? 0 }))
      .filter((item) => this.matching([item.integration.integration], search).length > 0);
    for (const item of items) item.integration.admin = item.integration.integration.ownerOrganizationId === organizationId;
    return pageInMemory(items, (item) => item.installation.id, request);
  }

  async status(caller: User, organizationId: string, name: string): Promise<string> {
    await this.access.requireMember(caller, organizationId);
    const integration = await this.integrations.findByName(name);
    const installation = integration ? await this.installations.findInOrganization(integration.id, organizationId) : null;
    if (!installation) throw NotFoundError.of('Integration installation', name);
    return installation.status;
  }

  async statuses(caller: User, organizationId: string, filter: { target?: 'organization' | 'space' | 'site'; space?: string; site?: string }, request: PageRequest): Promise<Page<InstalledIntegration>> {
    const context = await this.access.requireMember(caller, organizationId);
    const target = filter.target ?? 'organization';
    if ((filter.space && target !== 'space') || (filter.site && target !== 'site')) throw new InvalidError('"space" goes with target=space, "site" with target=site');
    let rows: Array<{ installation: InstallationOrm; target: InstalledIntegration['target'] }>;
    if (target === 'organization') {
      rows = (await this.installations.inOrganization(organizationId)).map((installation) => ({ installation, target: { type: 'organization', organizationId } }));
    } else {
      const id = target === 'space' ? filter.space : filter.site;
      if (!id) throw new InvalidError(`target=${target} needs the "${target}" it is about`);
      if (target === 'space') await this.spaces.get(caller, id);
      else await this.sites.get(caller, organizationId, id);
      rows = (await this.installations.installationsReaching(target, id, organizationId)).map((installation) => ({ installation, target: target === 'space' ? { type: 'space', spaceId: id } : { type: 'site', siteId: id } }));
    }
    const byId = new Map((await this.integrations.findByIds([...new Set(rows.map((r) => r.installation.integrationId))])).map((i) => [i.id, i]));
    const items = rows.map((r) => ({ status: r.installation.status, integration: { integration: byId.get(r.installation.integrationId)!, admin: false }, target: r.target }));
    for (const item of items) item.integration.admin = context.isAdmin && item.integration.integration.ownerOrganizationId === organizationId;
    return pageInMemory(items, (i) => i.integration.integration.id, request);
  }

  async onSpace(caller: User, spaceId: string, search?: string): Promise<IntegrationOrm[]> {
    const { space } = await this.spaces.get(caller, spaceId);
    return this.matching(await this.reaching('space', spaceId, space.organizationId), search);
  }

  async onSite(caller: User, organizationId: string, siteId: string, search?: string): Promise<IntegrationOrm[]> {
    await this.sites.get(caller, organizationId, siteId);
    return this.matching(await this.reaching('site', siteId, organizationId), search);
  }

  /** The scripts a site's pages load: integrations with `site:script:inject` installed on it, from their own service. */
  async siteScripts(organizationId: string, siteId: string): Promise<SiteScript[]> {
    const integrations = await this.reaching('site', siteId, organizationId);
    return integrations
      .filter((i) => i.manifest.scopes.includes('site:script:inject'))
      .map((i) => {
        const origin = new URL(i.endpoint).origin;
        const declared = cspDirectives(i.manifest.contentSecurityPolicy);
        const policy = ['script-src', 'connect-src', 'img-src', 'frame-src', 'style-src']
          .map((directive) => [directive, [...new Set([origin, ...safeSources(declared.get(directive))])].join(' ')] as const)
          .map(([directive, sources]) => `${directive} ${sources}`)
          .join('; ');
        return { integration: i.name, script: `${i.endpoint}/script.js?site=${encodeURIComponent(siteId)}`, origin, contentSecurityPolicy: policy, cookies: i.manifest.scopes.includes('site:script:cookies') };
      });
  }

  async listSiteScripts(caller: User, organizationId: string, siteId: string): Promise<SiteScript[]> {
    await this.sites.get(caller, organizationId, siteId);
    return this.siteScripts(organizationId, siteId);
  }

  private async reaching(kind: 'space' | 'site', id: string, organizationId: string): Promise<IntegrationOrm[]> {
    const installations = await this.installations.installationsReaching(kind, id, organizationId);
    const found = await this.integrations.findByIds([...new Set(installations.map((n) => n.integrationId))]);
    return found.sort((a, b) => a.name.localeCompare(b.name));
  }

  private matching(integrations: IntegrationOrm[], search?: string): IntegrationOrm[] {
    const q = search?.trim().toLowerCase();
    return q ? integrations.filter((i) => i.name.includes(q) || i.manifest.title.toLowerCase().includes(q)) : integrations;
  }
}
