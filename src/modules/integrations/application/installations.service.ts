import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, ForbiddenError, InvalidError, NotFoundError, Page, PageRequest, newId } from '@app/common';
import { Transactions, Tx } from '../../../database/transactions';
import { AccessService } from '../../access/application/access.service';
import type { User } from '../../identity/domain/user';
import { SitesService } from '../../sites/application/sites.service';
import { SpacesService } from '../../spaces/application/spaces.service';
import { defaultConfiguration, validateConfiguration } from '../domain/installation-configuration';
import { IntegrationOrm } from '../infrastructure/integration.orm';
import { InstallationOrm, SiteInstallationOrm, SpaceInstallationOrm } from '../infrastructure/installation.orm';
import { InstallationsRepository, TargetKind } from '../infrastructure/installations.repository';
import { IntegrationEventsService } from './integration-events.service';
import { IntegrationsService } from './integrations.service';

export type TargetInstallation = SpaceInstallationOrm | SiteInstallationOrm;

export interface InstallationUpdate {
  externalIds?: string[];
  configuration?: Record<string, unknown>;
  space_selection?: 'all' | 'selected';
  site_selection?: 'all' | 'selected';
}

const TARGETS: Record<TargetKind, { allowed: string[]; level: 'space' | 'site' }> = {
  space: { allowed: ['all', 'space'], level: 'space' },
  site: { allowed: ['all', 'site'], level: 'site' },
};

/**
 * Installing integrations: an organization's admins install one on the organization (its
 * account configuration checked against the manifest), then on chosen spaces and sites (theirs
 * checked likewise); the installation's own token may read and update its installation and its
 * targets' configurations, never widen its own reach. Uninstalling removes the targets and every token.
 * Each change tells the integration's service (installation_setup and friends).
 */
@Injectable()
export class InstallationsService {
  constructor(
    private readonly integrations: IntegrationsService,
    private readonly installations: InstallationsRepository,
    private readonly events: IntegrationEventsService,
    private readonly access: AccessService,
    private readonly spaces: SpacesService,
    private readonly sites: SitesService,
    private readonly transactions: Transactions,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async install(caller: User, name: string, organizationId: string): Promise<{ installation: InstallationOrm; created: boolean }> {
    if (typeof organizationId !== 'string' || !organizationId) throw new InvalidError('"organization" is required');
    const { integration } = await this.integrations.get(caller, name);
    await this.access.requireOrgRole(caller, organizationId, 'admin');
    const now = this.clock.now();
    const configuration = defaultConfiguration(integration.manifest.configurations.account);
    const fresh = Object.assign(new InstallationOrm(), {
      id: newId(),
      integrationId: integration.id,
      organizationId,
      status: this.statusOf(integration, configuration),
      spaceSelection: 'selected',
      siteSelection: 'selected',
      configuration,
      externalIds: [],
      createdAt: now,
      updatedAt: now,
    });
    return this.transactions.run(async (tx) => {
      const { row, created } = await this.installations.insertOnce(fresh, tx);
      if (created) await this.events.record(integration, row, { type: 'installation_setup', status: row.status }, tx);
      return { installation: row, created };
    });
  }

  /** The installation, for its organization's admins, its integration's publisher and its own token. */
  async get(caller: User, name: string, installationId: string): Promise<{ integration: IntegrationOrm; installation: InstallationOrm }> {
    const { integration, admin } = await this.integrations.get(caller, name);
    const installation = await this.installations.find(integration.id, installationId);
    if (!installation || !(await this.mayRead(caller, installation, admin))) throw NotFoundError.of('Installation', installationId);
    return { integration, installation };
  }

  async list(caller: User, name: string, request: PageRequest, externalId?: string): Promise<Page<InstallationOrm>> {
    const { integration, admin } = await this.integrations.get(caller, name);
    const organizationIds = admin ? undefined : caller.integrationScope ? [caller.integrationScope.organizationId] : (await this.access.memberships(caller)).filter((m) => m.role === 'admin').map((m) => m.organizationId);
    const page = await this.installations.list(integration.id, request, { organizationIds, externalId });
    if (!caller.integrationScope) return page;
    return { ...page, items: page.items.filter((n) => n.id === caller.integrationScope!.installationId) };
  }

  async spaceCounts(installations: InstallationOrm[]): Promise<Map<string, number>> {
    return this.installations.countSpaces(installations.map((n) => n.id));
  }

  async update(caller: User, name: string, installationId: string, input: InstallationUpdate): Promise<InstallationOrm> {
    const { integration } = await this.manage(caller, name, installationId);
    return this.transactions.run(async (tx) => {
      const installation = (await this.installations.find(integration.id, installationId, tx))!;
      const previous = { status: installation.status, configuration: installation.configuration };
      const previousSiteSelection = installation.siteSelection;
      if (input.configuration !== undefined) installation.configuration = validateConfiguration('account', integration.manifest.configurations.account, input.configuration);
      if (input.externalIds !== undefined) installation.externalIds = input.externalIds;
      if (input.space_selection) installation.spaceSelection = input.space_selection;
      if (input.site_selection) installation.siteSelection = input.site_selection;
      const reach = installation.siteSelection;
      installation.status = this.statusOf(integration, installation.configuration);
      installation.updatedAt = this.clock.now();
      await this.installations.save(installation, tx);
      if (reach !== previousSiteSelection || installation.status !== previous.status) await this.sitePagesChanged(integration, { organizationId: installation.organizationId }, tx);
      await this.events.record(integration, installation, { type: 'installation_setup', status: installation.status, previous }, tx);
      return installation;
    });
  }

  async uninstall(caller: User, name: string, installationId: string): Promise<boolean> {
    const { integration } = await this.integrations.get(caller, name);
    if (caller.integrationScope) throw new ForbiddenError('An installation token cannot uninstall its integration');
    const installation = await this.installations.find(integration.id, installationId);
    if (!installation) return false;
    await this.access.requireOrgRole(caller, installation.organizationId, 'admin');
    await this.transactions.run(async (tx) => {
      await this.events.record(integration, installation, { type: 'installation_deleted' }, tx);
      await this.installations.deleteTokens(installation.id, tx);
      await this.installations.delete(installation.id, tx);
      await this.sitePagesChanged(integration, { organizationId: installation.organizationId }, tx);
    });
    return true;
  }

  async installOn(caller: User, kind: TargetKind, name: string, installationId: string, targetId: unknown): Promise<{ target: TargetInstallation; created: boolean }> {
    if (typeof targetId !== 'string' || !targetId) throw new InvalidError(kind === 'space' ? '"space" is required' : '"siteId" is required');
    if (caller.integrationScope) throw new ForbiddenError("An installation token cannot widen its own installation: an admin of the organization installs it on spaces and sites");
    const { integration, installation } = await this.manage(caller, name, installationId);
    if (!TARGETS[kind].allowed.includes(integration.manifest.target)) throw new InvalidError(`This integration installs on ${integration.manifest.target === 'all' ? 'any target' : `${integration.manifest.target}s`}, not on ${kind}s`);
    await this.assertTarget(caller, kind, installation.organizationId, targetId);
    const now = this.clock.now();
    const configuration = defaultConfiguration(integration.manifest.configurations[TARGETS[kind].level]);
    const row = Object.assign(kind === 'space' ? new SpaceInstallationOrm() : new SiteInstallationOrm(), {
      installationId,
      ...(kind === 'space' ? { spaceId: targetId } : { siteId: targetId }),
      status: this.statusOf(integration, configuration, kind),
      configuration,
      externalIds: [],
      createdAt: now,
      updatedAt: now,
    }) as TargetInstallation;
    return this.transactions.run(async (tx) => {
      const created = await this.installations.insertTarget(kind, row, tx);
      const target = created ? row : (await this.installations.findTarget(kind, installationId, targetId, tx))!;
      if (created) await this.events.record(integration, installation, { type: `${kind}_installation_setup`, [`${kind}Id`]: targetId, status: target.status }, tx);
      if (created && kind === 'site') await this.sitePagesChanged(integration, { siteIds: [targetId] }, tx);
      return { target, created };
    });
  }

  async getTarget(caller: User, kind: TargetKind, name: string, installationId: string, targetId: string): Promise<TargetInstallation> {
    const { installation } = await this.get(caller, name, installationId);
    const target = await this.installations.findTarget(kind, installation.id, targetId);
    if (!target) throw NotFoundError.of(kind === 'space' ? 'Space installation' : 'Site installation', targetId);
    return target;
  }

  async listTargets(caller: User, kind: TargetKind, name: string, request: PageRequest, filter: { installationId?: string; externalId?: string }): Promise<Page<TargetInstallation>> {
    if (filter.installationId) {
      const { installation } = await this.get(caller, name, filter.installationId);
      return this.installations.listTargets(kind, { installationIds: [installation.id], externalId: filter.externalId }, request);
    }
    const { integration, admin } = await this.integrations.get(caller, name);
    if (caller.integrationScope) return this.installations.listTargets(kind, { installationIds: [caller.integrationScope.installationId], externalId: filter.externalId }, request);
    if (!admin) throw new ForbiddenError("Only the integration's publisher lists all its installations");
    return this.installations.listTargetsOfIntegration(kind, integration.id, filter.externalId, request);
  }

  async updateTarget(caller: User, kind: TargetKind, name: string, installationId: string, targetId: string, input: { externalIds?: string[]; configuration?: Record<string, unknown> }): Promise<TargetInstallation> {
    const { integration, installation } = await this.manage(caller, name, installationId);
    return this.transactions.run(async (tx) => {
      const target = await this.installations.findTarget(kind, installationId, targetId, tx);
      if (!target) throw NotFoundError.of(kind === 'space' ? 'Space installation' : 'Site installation', targetId);
      const previous = { status: target.status, configuration: target.configuration };
      if (input.configuration !== undefined) target.configuration = validateConfiguration(TARGETS[kind].level, integration.manifest.configurations[TARGETS[kind].level], input.configuration);
      if (input.externalIds !== undefined) target.externalIds = input.externalIds;
      target.status = this.statusOf(integration, target.configuration, kind);
      target.updatedAt = this.clock.now();
      await this.installations.saveTarget(kind, target, tx);
      await this.events.record(integration, installation, { type: `${kind}_installation_setup`, [`${kind}Id`]: targetId, status: target.status, previous }, tx);
      return target;
    });
  }

  async uninstallFrom(caller: User, kind: TargetKind, name: string, installationId: string, targetId: string): Promise<boolean> {
    const { integration, installation } = await this.manage(caller, name, installationId);
    return this.transactions.run(async (tx) => {
      const deleted = await this.installations.deleteTarget(kind, installationId, targetId, tx);
      if (deleted) await this.events.record(integration, installation, { type: `${kind}_installation_deleted`, [`${kind}Id`]: targetId }, tx);
      if (deleted && kind === 'site') await this.sitePagesChanged(integration, { siteIds: [targetId] }, tx);
      return deleted;
    });
  }

  /** Pages of sites an integration with a site script reaches load it: they are rendered anew when that reach changes. */
  private async sitePagesChanged(integration: IntegrationOrm, change: { siteIds: string[] } | { organizationId: string }, tx: Tx): Promise<void> {
    if (integration.manifest.scopes.includes('site:script:inject')) await this.sites.pagesChanged(change, tx);
  }

  /** Changing an installation: its organization's admins, or its own token. */
  private async manage(caller: User, name: string, installationId: string): Promise<{ integration: IntegrationOrm; installation: InstallationOrm }> {
    const found = await this.get(caller, name, installationId);
    if (caller.integrationScope) {
      if (caller.integrationScope.installationId !== installationId) throw NotFoundError.of('Installation', installationId);
    } else {
      await this.access.requireOrgRole(caller, found.installation.organizationId, 'admin');
    }
    return found;
  }

  private async mayRead(caller: User, installation: InstallationOrm, publisherAdmin: boolean): Promise<boolean> {
    if (caller.integrationScope) return caller.integrationScope.installationId === installation.id;
    if (publisherAdmin) return true;
    return (await this.access.context(caller, installation.organizationId)).isAdmin;
  }

  /** The space or site must be the installation's organization's (404 otherwise, as to any caller who cannot see it). */
  private async assertTarget(caller: User, kind: TargetKind, organizationId: string, targetId: string): Promise<void> {
    if (kind === 'space') {
      const owner = await this.spaces.organizationOf(targetId);
      if (owner !== organizationId) throw NotFoundError.of('Space', targetId);
      await this.spaces.get(caller, targetId);
    } else {
      await this.sites.get(caller, organizationId, targetId);
    }
  }

  /** `pending` while a required configuration property is missing, `active` otherwise. */
  private statusOf(integration: IntegrationOrm, configuration: Record<string, unknown>, kind?: TargetKind): 'active' | 'pending' {
    const schema = integration.manifest.configurations[kind ? TARGETS[kind].level : 'account'];
    if (!schema || !('properties' in schema)) return 'active';
    return (schema.required ?? []).every((name) => configuration[name] !== undefined) ? 'active' : 'pending';
  }
}
