import { Inject, Logger } from '@nestjs/common';
import { CLOCK, Clock } from '@app/common';
import { Transactions } from '../../../database/transactions';
import { HandlesJob, JobContext, JobHandler } from '../../../jobs/job-handler';
import { VerifyCustomHostname } from '../application/custom-hostnames.jobs';
import { challengeName, challengeVerdict } from '../domain/custom-hostname';
import { DnsTxtResolver } from './dns-txt-resolver';
import { SitesRepository } from './sites.repository';

/**
 * Looks up a claim's TXT record and records what it says; a claim whose record holds its token is
 * served from then on. Idempotent: a claim already served, changed or dropped since the job was
 * queued is left alone, and the result is written under the site's lock against the claim as it is then.
 */
@HandlesJob(VerifyCustomHostname)
export class VerifyCustomHostnameHandler implements JobHandler<{ siteId: string }> {
  private readonly logger = new Logger(VerifyCustomHostnameHandler.name);

  constructor(
    private readonly repository: SitesRepository,
    private readonly resolver: DnsTxtResolver,
    private readonly transactions: Transactions,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async handle({ siteId }: { siteId: string }, context: JobContext): Promise<{ status: string } | { skipped: string }> {
    const site = await this.repository.findById(siteId);
    if (!site?.hostname || !site.hostnameToken || site.hostnameStatus === 'live') return { skipped: 'no claim to check' };
    const { hostname, hostnameToken: token } = site;
    let status: string;
    let lookupFailed: unknown;
    try {
      status = challengeVerdict(await this.resolver.txt(challengeName(hostname)), token);
    } catch (error) {
      // A failed lookup is recorded, then retried while attempts remain.
      lookupFailed = error;
      status = 'internal_error';
    }
    const written = await this.transactions.run(async (tx) => {
      const locked = await this.repository.lock(site.organizationId, site.id, tx);
      if (!locked || locked.hostname !== hostname || locked.hostnameToken !== token || locked.hostnameStatus === 'live') return null;
      // A name another site proved first stays theirs.
      if (status === 'live' && (await this.repository.hostnameTaken(hostname, site.id, tx))) status = 'invalid_domain';
      await this.repository.update(site.id, { hostnameStatus: status, hostnameCheckedAt: this.clock.now() }, tx);
      return status;
    });
    if (written === null) return { skipped: 'the claim changed meanwhile' };
    this.logger.log({ siteId, status: written, attempt: context.attempt }, 'custom hostname checked');
    if (lookupFailed) throw new Error(`DNS lookup of the claim's TXT record failed: ${(lookupFailed as Error).message}`);
    return { status: written };
  }
}
