import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { Client } from 'pg';
import { DataSource } from 'typeorm';

/** The channel the `sites` and `site_share_links` triggers notify on commit (migration PublishedSitesNotify). */
export const PUBLISHED_CHANNEL = 'published_sites';

/**
 * A counter that moves whenever anything a published page depends on may have changed: a site,
 * its structure or share links, or a space it shows (which bumps the site's version). Writes in
 * this process move it at once; writes anywhere else (another replica, the worker) reach it by
 * PostgreSQL's LISTEN/NOTIFY when they commit. Readers' pages cached under an older value are
 * never served. While the listening connection is down nothing counts as fresh. It connects on
 * first use, so processes that serve no published page (the worker) hold no extra connection.
 */
@Injectable()
export class PublishedChanges implements OnModuleDestroy {
  private readonly logger = new Logger(PublishedChanges.name);
  private counter = 0;
  private client: Client | null = null;
  private listening = false;
  private closed = false;
  private retry: NodeJS.Timeout | null = null;
  private started = false;

  constructor(private readonly dataSource: DataSource) {}

  /** The current value; a cached page is fresh only while this is unchanged and `live`. */
  get generation(): number {
    return this.counter;
  }

  get live(): boolean {
    if (!this.started) {
      this.started = true;
      void this.listen();
    }
    return this.listening;
  }

  /** For this process's own writes (the NOTIFY of the commit follows). */
  touched(): void {
    this.counter++;
  }

  async onModuleDestroy(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    this.listening = false;
    await this.client?.end().catch(() => undefined);
  }

  private async listen(): Promise<void> {
    const url = (this.dataSource.options as { url?: string }).url;
    if (!url || this.closed) return;
    const client = new Client({ connectionString: url });
    this.client = client;
    const lost = (error?: Error) => {
      if (client !== this.client) return;
      this.listening = false;
      this.counter++;
      if (error && !this.closed) this.logger.warn(`published-site change feed lost (${error.message}); reconnecting`);
      client.end().catch(() => undefined);
      if (!this.closed) this.retry = setTimeout(() => void this.listen(), 1000);
    };
    client.on('notification', () => this.counter++);
    client.on('error', lost);
    client.on('end', () => lost());
    try {
      await client.connect();
      await client.query(`LISTEN ${PUBLISHED_CHANNEL}`);
      this.counter++;
      this.listening = true;
    } catch (error) {
      lost(error as Error);
    }
  }
}
