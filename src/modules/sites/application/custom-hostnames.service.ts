import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig, ConflictError, NotFoundError } from '@app/common';
import { Transactions, Tx } from '../../../database/transactions';
import { JobOutbox, StagedJobs } from '../../../jobs/outbox/job-outbox';
import { User } from '../../identity/domain/user';
import { mayRevalidate, newChallengeToken } from '../domain/custom-hostname';
import { SiteOrm } from '../infrastructure/site.orm';
import { SitesRepository } from '../infrastructure/sites.repository';
import { VerifyCustomHostname } from './custom-hostnames.jobs';
import { SiteAccess } from './site-access';

type ClaimFields = Pick<SiteOrm, 'hostname' | 'hostnameStatus' | 'hostnameToken' | 'hostnameCheckedAt'>;

/**
 * Sites' own host names. A claim is served only once proved: the organization publishes the
 * claim's token in a DNS TXT record, and a worker job (VerifyCustomHostname) looks it up through the
 * operator's resolvers. Several sites may claim a name while they prove it; a name one site serves
 * cannot be claimed by another (409). With HOSTNAME_VERIFICATION=off, claims are served at once.
 */
@Injectable()
export class CustomHostnamesService {
  constructor(
    private readonly repository: SitesRepository,
    private readonly siteAccess: SiteAccess,
    private readonly outbox: JobOutbox,
    private readonly transactions: Transactions,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The fields a site's new host name writes (inside the site's update, under its lock), and the check it stages. */
  async claim(site: SiteOrm, hostname: string | null, tx: Tx): Promise<{ fields: Partial<ClaimFields>; staged?: StagedJobs }> {
    if (hostname === null) return { fields: { hostname: null, hostnameStatus: null, hostnameToken: null, hostnameCheckedAt: null } };
    if (hostname === site.hostname) return { fields: {} };
    // The unique index over served names holds the race; this names the conflict.
    if (await this.repository.hostnameTaken(hostname, site.id, tx)) throw new ConflictError(`hostname: "${hostname}" is served by another site`);
    if (this.config.hostnames.verification === 'off') return { fields: { hostname, hostnameStatus: 'live', hostnameToken: null, hostnameCheckedAt: null } };
    const staged = await this.outbox.stage(tx, VerifyCustomHostname, [{ payload: { siteId: site.id } }]);
    return { fields: { hostname, hostnameStatus: 'pending', hostnameToken: newChallengeToken(), hostnameCheckedAt: null }, staged };
  }

  release(staged: StagedJobs | undefined): Promise<void> {
    return staged ? this.outbox.release(staged) : Promise.resolve();
  }

  /** The caller's claim of a host name: the one served if it is theirs, else their first. 404 when they see none. */
  async get(caller: User, hostname: string): Promise<SiteOrm> {
    const [claim] = await this.visibleClaims(caller, hostname, 'read');
    if (!claim) throw NotFoundError.of('Custom hostname', hostname);
    return claim;
  }

  /** Checks the caller's unproved claims again (site admins); a served name is a 409. */
  async revalidate(caller: User, hostname: string): Promise<void> {
    const claims = await this.visibleClaims(caller, hostname, 'admin');
    if (!claims.length) throw NotFoundError.of('Custom hostname', hostname);
    const open = claims.filter((site) => mayRevalidate(site.hostnameStatus));
    if (!open.length) throw new ConflictError(`"${hostname}" is already proved and served; there is nothing to check again`);
    const staged = await this.transactions.run((tx) => this.outbox.stage(tx, VerifyCustomHostname, open.map((site) => ({ payload: { siteId: site.id } }))));
    await this.outbox.release(staged);
  }

  /** Takes the host name off the caller's sites (site admins). False when they had no claim of it. */
  async remove(caller: User, hostname: string): Promise<boolean> {
    const claims = await this.visibleClaims(caller, hostname, 'admin');
    await this.transactions.run(async (tx) => {
      for (const claim of claims) {
        const site = await this.siteAccess.lock(claim.organizationId, claim.id, tx);
        if (site.hostname === hostname) await this.repository.update(site.id, { hostname: null, hostnameStatus: null, hostnameToken: null, hostnameCheckedAt: null }, tx);
      }
    });
    return claims.length > 0;
  }

  /** Claims of the name on sites the caller has at least `minimum` on, the served one first. */
  private async visibleClaims(caller: User, hostname: string, minimum: 'read' | 'admin'): Promise<SiteOrm[]> {
    const claims = await this.repository.claimsOf(hostname.toLowerCase());
    const visible: SiteOrm[] = [];
    for (const site of claims) {
      const role = await this.siteAccess.role(caller, site.organizationId, site.id).catch((error: unknown) => {
        if (error instanceof NotFoundError) return null;
        throw error;
      });
      if (role && (minimum === 'read' || role === 'admin')) visible.push(site);
    }
    return visible.sort((a, b) => Number(b.hostnameStatus === 'live') - Number(a.hostnameStatus === 'live'));
  }
}
