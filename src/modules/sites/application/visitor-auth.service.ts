import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, InvalidError } from '@app/common';
import { SecretBox } from '../../../core/secrets/secret-box';
import { Transactions } from '../../../database/transactions';
import { User } from '../../identity/domain/user';
import { SiteOrm } from '../infrastructure/site.orm';
import { SitesRepository } from '../infrastructure/sites.repository';
import { SiteAccess } from './site-access';

export interface PublishingAuthView {
  backend: 'custom';
  /** The whole key only when it was just generated; otherwise its last four characters behind a mask. */
  privateKey: string;
  fallbackURL?: string;
}

/**
 * The visitor signing key of a site (GitBook's publishing auth): visitors of a `visitor-auth` site
 * present a JWT signed with it (HS256). Generated on first read or on regeneration, sealed at rest
 * with SECRETS_KEY, shown whole only in the answer that created it; organization admins only.
 */
@Injectable()
export class VisitorAuthService {
  constructor(
    private readonly repository: SitesRepository,
    private readonly siteAccess: SiteAccess,
    private readonly secrets: SecretBox,
    private readonly transactions: Transactions,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async get(caller: User, organizationId: string, siteId: string): Promise<PublishingAuthView> {
    const { site: current } = await this.siteAccess.read(caller, organizationId, siteId, 'admin');
    // A key that exists is only shown: no lock, so reading it is not a change the audit log records.
    if (current.visitorAuthKey) return this.view(current, null);
    return this.transactions.run(async (tx) => {
      const site = await this.siteAccess.lock(organizationId, siteId, tx);
      if (!site.visitorAuthKey) {
        const key = this.generate(site);
        await this.repository.update(site.id, { visitorAuthKey: site.visitorAuthKey, updatedAt: this.clock.now() }, tx);
        return this.view(site, key);
      }
      return this.view(site, null);
    });
  }

  async update(caller: User, organizationId: string, siteId: string, input: { backend?: unknown; fallbackURL?: unknown }): Promise<PublishingAuthView> {
    if (input.backend !== 'custom') throw new InvalidError('backend: "custom" (integration backends are not available on this server)');
    let fallback: string | null | undefined;
    if (input.fallbackURL !== undefined) {
      if (input.fallbackURL !== null && (typeof input.fallbackURL !== 'string' || input.fallbackURL.length > 2048 || !/^https?:\/\/[^\s]+$/.test(input.fallbackURL))) {
        throw new InvalidError('fallbackURL: an http(s) URL, or null');
      }
      fallback = input.fallbackURL as string | null;
    }
    await this.siteAccess.role(caller, organizationId, siteId, 'admin');
    return this.transactions.run(async (tx) => {
      const site = await this.siteAccess.lock(organizationId, siteId, tx);
      const created = site.visitorAuthKey ? null : this.generate(site);
      if (fallback !== undefined) site.visitorAuthFallbackUrl = fallback;
      await this.repository.update(site.id, { visitorAuthKey: site.visitorAuthKey, visitorAuthFallbackUrl: site.visitorAuthFallbackUrl, updatedAt: this.clock.now() }, tx);
      return this.view(site, created);
    });
  }

  /** A new key: JWTs signed with the old one stop working at once. */
  async regenerate(caller: User, organizationId: string, siteId: string): Promise<PublishingAuthView> {
    await this.siteAccess.role(caller, organizationId, siteId, 'admin');
    return this.transactions.run(async (tx) => {
      const site = await this.siteAccess.lock(organizationId, siteId, tx);
      const key = this.generate(site);
      await this.repository.update(site.id, { visitorAuthKey: site.visitorAuthKey, updatedAt: this.clock.now() }, tx);
      return this.view(site, key);
    });
  }

  /** The key visitors' tokens are checked against (null when none was ever generated). */
  signingKey(site: SiteOrm): Uint8Array | null {
    return site.visitorAuthKey ? new TextEncoder().encode(this.secrets.open(site.visitorAuthKey)) : null;
  }

  private generate(site: SiteOrm): string {
    const key = randomBytes(32).toString('base64url');
    site.visitorAuthKey = this.secrets.seal(key, "sites' visitor signing keys");
    return key;
  }

  private view(site: SiteOrm, freshKey: string | null): PublishingAuthView {
    const key = freshKey ?? `••••••••${this.secrets.open(site.visitorAuthKey!).slice(-4)}`;
    return { backend: 'custom', privateKey: key, ...(site.visitorAuthFallbackUrl ? { fallbackURL: site.visitorAuthFallbackUrl } : {}) };
  }
}
