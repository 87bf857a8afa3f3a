import { Resolver } from 'node:dns/promises';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@app/common';

/** Answers that mean "this name has no TXT record", as opposed to a lookup that failed. */
const NO_RECORD = new Set(['ENOTFOUND', 'ENODATA', 'NXDOMAIN']);

/**
 * TXT lookups for host name claims, through the resolvers the operator names
 * (HOSTNAME_VERIFY_RESOLVER) so the answer never comes from one the claimant controls; the
 * system's when none are named.
 */
@Injectable()
export class DnsTxtResolver {
  private readonly resolver: Resolver;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.resolver = new Resolver({ timeout: 3000, tries: 2 });
    if (config.hostnames.resolver.length) this.resolver.setServers(config.hostnames.resolver);
  }

  /** Each record's strings; null when the name has none. Throws when the lookup itself fails. */
  async txt(name: string): Promise<string[][] | null> {
    try {
      return await this.resolver.resolveTxt(name);
    } catch (error) {
      if (NO_RECORD.has((error as NodeJS.ErrnoException).code ?? '')) return null;
      throw error;
    }
  }
}
