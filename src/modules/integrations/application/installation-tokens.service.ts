import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, ForbiddenError, newId } from '@app/common';
import { hashToken } from '../../identity/domain/api-token';
import { INSTALLATION_TOKEN_PREFIX, InstallationTokenVerifier } from '../../identity/application/installation-token-verifier';
import type { User } from '../../identity/domain/user';
import { InstallationTokenOrm } from '../infrastructure/installation.orm';
import { InstallationsRepository } from '../infrastructure/installations.repository';
import { TokenGrantsRepository } from '../infrastructure/token-grants.repository';
import { InstallationsService } from './installations.service';
import { IntegrationsService } from './integrations.service';

/** An installation token lives an hour (GitBook's temporary tokens are short-lived too). */
export const INSTALLATION_TOKEN_LIFETIME_MS = 60 * 60 * 1000;
/** Tokens this process hands to the integration's service with its calls are renewed at half-life. */
const RENEW_AFTER_MS = INSTALLATION_TOKEN_LIFETIME_MS / 2;

/**
 * Installation tokens: minted for the integration's publisher (createIntegrationInstallationToken)
 * and with each call we make to the service, stored hashed, an hour long. Verifying one yields the
 * integration's user, limited to the installation's organization, scopes, spaces and sites.
 */
@Injectable()
export class InstallationTokensService extends InstallationTokenVerifier {
  private readonly forCallsCache = new Map<string, { token: string; renewAt: number }>();

  constructor(
    private readonly integrations: IntegrationsService,
    private readonly installations: InstallationsService,
    private readonly repository: InstallationsRepository,
    private readonly grants: TokenGrantsRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    super();
  }

  /** createIntegrationInstallationToken: the integration's publisher (its organization's admins). */
  async create(caller: User, name: string, installationId: string): Promise<{ token: string; expiresAt: Date }> {
    if (caller.integrationScope) throw new ForbiddenError('An installation token cannot mint installation tokens');
    const { admin } = await this.integrations.get(caller, name);
    if (!admin) throw new ForbiddenError("Only the integration's publisher (an admin of its organization) mints installation tokens");
    const { installation } = await this.installations.get(caller, name, installationId);
    return this.mint(installation.id);
  }

  /** A token for the service to call back with, reused until half its life. */
  async forCalls(installationId: string): Promise<string> {
    const now = Date.now();
    const cached = this.forCallsCache.get(installationId);
    if (cached && cached.renewAt > now) return cached.token;
    const { token } = await this.mint(installationId);
    if (this.forCallsCache.size > 10_000) this.forCallsCache.clear();
    this.forCallsCache.set(installationId, { token, renewAt: now + RENEW_AFTER_MS });
    return token;
  }

  async verify(token: string): Promise<User | null> {
    const grant = await this.grants.byTokenHash(hashToken(token), this.clock.now());
    if (!grant) return null;
    return {
      id: grant.botUserId,
      email: grant.botEmail,
      displayName: grant.botName,
      photoUrl: null,
      emailVerified: true,
      createdAt: grant.botCreatedAt,
      organizationScope: grant.organizationId,
      integrationScope: {
        integration: grant.integration,
        installationId: grant.installationId,
        organizationId: grant.organizationId,
        scopes: grant.scopes,
        spaceIds: grant.spaceSelection === 'all' ? 'all' : grant.spaceIds,
        siteIds: grant.siteSelection === 'all' ? 'all' : grant.siteIds,
      },
    };
  }

  private async mint(installationId: string): Promise<{ token: string; expiresAt: Date }> {
    const token = INSTALLATION_TOKEN_PREFIX + randomBytes(32).toString('base64url');
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + INSTALLATION_TOKEN_LIFETIME_MS);
    await this.repository.insertToken(Object.assign(new InstallationTokenOrm(), { id: newId(), installationId, tokenHash: hashToken(token), expiresAt, createdAt: now }), now);
    return { token, expiresAt };
  }
}
