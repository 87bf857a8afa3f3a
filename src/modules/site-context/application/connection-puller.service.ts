import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, newId } from '@app/common';
import { GuardedFetcher } from '../../../core/outbound/guarded-fetcher';
import { Transactions } from '../../../database/transactions';
import { PULLED_CONNECTORS } from '../domain/context-connection';
import { recordsFromFeed } from '../domain/context-record';
import { ContextRepository } from '../infrastructure/context.repository';
import { keptAs } from './context-records.service';
import { SiteScansService } from './site-scans.service';

const MAX_FEED_BYTES = 16 * 1024 * 1024;

/**
 * Pulls a connection's records from its source, as the worker runs it: a `builtin:website`
 * connection's address answers a JSON feed of records, fetched through the guarded fetcher (no
 * private address, bounded size and time). Records are kept by their ids, so a retry repeats
 * nothing; a failure is kept on the connection with who can resolve it.
 */
@Injectable()
export class ConnectionPuller {
  constructor(
    private readonly repository: ContextRepository,
    private readonly fetcher: GuardedFetcher,
    private readonly scans: SiteScansService,
    private readonly transactions: Transactions,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async pull(connectionId: string): Promise<{ records: number; skipped: number } | { skipped: string }> {
    const connection = await this.repository.findConnectionById(connectionId);
    if (!connection || !PULLED_CONNECTORS.has(connection.connector)) return { skipped: 'no such connection, or not pulled' };
    const fail = async (reason: string, message: string) => {
      Object.assign(connection, { status: 'failed', failureReason: reason, failureMessage: message.slice(0, 512), updatedAt: this.clock.now() });
      await this.repository.saveConnection(connection);
      return { skipped: message };
    };
    let json: unknown;
    try {
      const answer = await this.fetcher.request(String(connection.settings.url), { method: 'GET', headers: { accept: 'application/json' } }, { maxBytes: MAX_FEED_BYTES, timeoutMs: 30_000, maxRedirects: 3 });
      if (answer.status === 401 || answer.status === 403) return fail('authentication', `The address answered HTTP ${answer.status}`);
      if (answer.status === 429) return fail('rate_limited', 'The address answered HTTP 429');
      if (answer.status >= 500) return fail('upstream_unavailable', `The address answered HTTP ${answer.status}`);
      if (answer.status >= 400) return fail('misconfigured', `The address answered HTTP ${answer.status}`);
      json = JSON.parse(Buffer.from(answer.bytes).toString('utf8'));
    } catch (error) {
      return fail(error instanceof SyntaxError ? 'misconfigured' : 'unknown', error instanceof SyntaxError ? 'The address did not answer JSON' : (error as Error).message);
    }
    let feed: ReturnType<typeof recordsFromFeed>;
    try {
      feed = recordsFromFeed(json);
    } catch (error) {
      return fail('misconfigured', (error as Error).message);
    }
    const now = this.clock.now();
    await this.transactions.run(async (tx) => {
      const locked = (await this.repository.findConnection(connection.siteId, connection.id, tx))!;
      await this.repository.upsertRecords(locked, feed.records.map(keptAs), feed.records.map(() => newId()), now, tx);
      Object.assign(locked, { status: 'succeeded', failureReason: null, failureMessage: null, syncedAt: now, updatedAt: now });
      await this.repository.saveConnection(locked, tx);
    });
    await this.scans.startIfAutomatic(connection.organizationId, connection.siteId);
    return { records: feed.records.length, skipped: feed.skipped };
  }
}
