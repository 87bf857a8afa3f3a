import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig, CLOCK, Clock, ForbiddenError, InvalidError, NotFoundError, Page, PageRequest, newId } from '@app/common';
import { Transactions } from '../../../database/transactions';
import { SecretBox } from '../../../core/secrets/secret-box';
import { AccessService } from '../../access/application/access.service';
import { IdentityService } from '../../identity/application/identity.service';
import { OrganizationsService, OrganizationView } from '../../organizations/application/organizations.service';
import type { User } from '../../identity/domain/user';
import { IntegrationManifest, assertIntegrationName, parseEndpoint, parseManifest } from '../domain/integration-manifest';
import { IntegrationOrm } from '../infrastructure/integration.orm';
import { IntegrationSearch, IntegrationsRepository } from '../infrastructure/integrations.repository';

/** An integration and whether the caller administers it (an admin of its publisher). */
export interface IntegrationView {
  integration: IntegrationOrm;
  admin: boolean;
}

export interface PublishInput {
  organization: string;
  endpoint?: unknown;
  secrets?: Record<string, string>;
  [field: string]: unknown;
}

/** What the integration's service is signed with, and what it gets back at run time. */
export interface IntegrationSecrets {
  signingSecret: string;
  secrets: Record<string, string>;
}

/**
 * Publishing integrations: an organization's admins publish (and re-publish) their integrations;
 * only an instance administrator lists one publicly. Reading one: public and unlisted ones to
 * anyone, private ones to their publisher's members and to their own installations' tokens.
 */
@Injectable()
export class IntegrationsService {
  constructor(
    private readonly integrations: IntegrationsRepository,
    private readonly access: AccessService,
    private readonly identity: IdentityService,
    private readonly organizations: OrganizationsService,
    private readonly secrets: SecretBox,
    private readonly transactions: Transactions,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Publishes a new integration or a new version; the signing secret is returned once, when this call made it. */
  async publish(caller: User, name: string, input: PublishInput): Promise<IntegrationView & { signingSecret?: string }> {
    assertIntegrationName(name);
    if (caller.integrationScope) throw new ForbiddenError('An installation token cannot publish integrations');
    if (typeof input.organization !== 'string' || !input.organization) throw new InvalidError('"organization" is required: the id of the organization publishing the integration');
    await this.access.requireOrgRole(caller, input.organization, 'admin');
    if (input.visibility === 'public' && !caller.instanceAdmin) {
      throw new ForbiddenError('Only an instance administrator lists an integration publicly; publish it `private` or `unlisted`');
    }
    const given = input.secrets as Record<string, string> | undefined;
    if (given?.signingSecret !== undefined && (typeof given.signingSecret !== 'string' || given.signingSecret.length < 24)) {
      throw new InvalidError('"secrets.signingSecret" must be at least 24 characters');
    }
    return this.transactions.run(async (tx) => {
      const now = this.clock.now();
      const existing = await this.integrations.findByName(name, tx);
      if (existing && existing.ownerOrganizationId !== input.organization) throw new ForbiddenError(`The name "${name}" is taken by another organization's integration`);
      const manifest: IntegrationManifest = parseManifest(input, existing?.manifest);
      const endpoint = input.endpoint !== undefined ? parseEndpoint(input.endpoint, this.config.outboundAllowPrivate) : existing?.endpoint;
      if (!endpoint) throw new InvalidError('"endpoint" is required: the https address where the integration\'s service answers (this server never runs integration code)');
      const previous = existing ? this.openSecrets(existing) : null;
      const madeSecret = !given?.signingSecret && !previous ? randomBytes(32).toString('base64url') : undefined;
      const { signingSecret, ...others } = given ?? {};
      const sealed = this.secrets.seal(JSON.stringify({ signingSecret: signingSecret ?? previous?.signingSecret ?? madeSecret, secrets: given ? others : (previous?.secrets ?? {}) }), 'integration secrets');
      if (existing) {
        Object.assign(existing, { manifest, endpoint, visibility: manifest.visibility, sealedSecrets: sealed, version: existing.version + 1, updatedAt: now });
        await this.integrations.save(existing, tx);
        return { integration: existing, admin: true };
      }
      const email = `${name}@integrations.invalid`;
      const bot = (await this.identity.findByEmail(email, tx)) ?? (await this.identity.createUser({ email, displayName: manifest.title, emailVerified: true }, tx));
      const integration = Object.assign(new IntegrationOrm(), {
        id: newId(),
        name,
        ownerOrganizationId: input.organization,
        botUserId: bot.id,
        visibility: manifest.visibility,
        manifest,
        endpoint,
        sealedSecrets: sealed,
        devTunnelUrl: null,
        devAll: false,
        version: 1,
        createdAt: now,
        updatedAt: now,
      });
      await this.integrations.insert(integration, tx);
      return { integration, admin: true, ...(madeSecret ? { signingSecret: madeSecret } : {}) };
    });
  }

  async get(caller: User, name: string): Promise<IntegrationView> {
    const integration = await this.integrations.findByName(name);
    if (!integration) throw NotFoundError.of('Integration', name);
    const admin = await this.isAdmin(caller, integration);
    if (!admin && !(await this.mayRead(caller, integration))) throw NotFoundError.of('Integration', name);
    return { integration, admin };
  }

  /** The integration for its publisher's admins (403 to its other readers, 404 to the rest). */
  async requireAdmin(caller: User, name: string): Promise<IntegrationOrm> {
    const { integration, admin } = await this.get(caller, name);
    if (!admin) throw new ForbiddenError('Only an admin of the organization that published this integration may do this');
    return integration;
  }

  async list(caller: User, search: IntegrationSearch, request: PageRequest, installedIn?: string): Promise<Page<IntegrationView>> {
    const memberships = await this.access.memberships(caller);
    const page = await this.integrations.list({ ownerIds: memberships.map((m) => m.organizationId) }, search, request, installedIn);
    const admins = new Set(memberships.filter((m) => m.role === 'admin').map((m) => m.organizationId));
    return { ...page, items: page.items.map((integration) => ({ integration, admin: admins.has(integration.ownerOrganizationId) })) };
  }

  async unpublish(caller: User, name: string): Promise<boolean> {
    const integration = await this.requireAdmin(caller, name);
    return this.integrations.delete(integration.id);
  }

  /** Development mode: events and renders go to the developer's tunnel instead of the published endpoint. */
  async setDevelopmentMode(caller: User, name: string, tunnelUrl: string | null, all = false): Promise<void> {
    const integration = await this.requireAdmin(caller, name);
    integration.devTunnelUrl = tunnelUrl === null ? null : parseEndpoint(tunnelUrl, this.config.outboundAllowPrivate);
    integration.devAll = tunnelUrl !== null && all;
    integration.updatedAt = this.clock.now();
    await this.integrations.save(integration);
  }

  /** The publishers of the integrations, as `owner` shows them to the caller. */
  owners(caller: User, integrations: IntegrationOrm[]): Promise<Map<string, OrganizationView>> {
    return this.organizations.publishers(caller, integrations.map((i) => i.ownerOrganizationId));
  }

  openSecrets(integration: IntegrationOrm): IntegrationSecrets {
    return JSON.parse(this.secrets.open(integration.sealedSecrets)) as IntegrationSecrets;
  }

  private async isAdmin(caller: User, integration: IntegrationOrm): Promise<boolean> {
    if (caller.integrationScope || caller.siteScope) return false;
    return (await this.access.context(caller, integration.ownerOrganizationId)).isAdmin;
  }

  private async mayRead(caller: User, integration: IntegrationOrm): Promise<boolean> {
    if (integration.visibility !== 'private') return true;
    if (caller.integrationScope) return caller.integrationScope.integration === integration.name;
    return (await this.access.context(caller, integration.ownerOrganizationId)).isMember;
  }
}
