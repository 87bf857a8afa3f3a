import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { PgListener } from '../../../database/pg-listener';

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
  private counter = 0;
  private listening = false;
  private readonly listener: PgListener;
  private started = false;

  constructor(dataSource: DataSource) {
    this.listener = new PgListener(
      dataSource,
      PUBLISHED_CHANNEL,
      {
        onNotification: () => this.counter++,
        onListening: () => {
          this.counter++;
          this.listening = true;
        },
        onLost: () => {
          this.listening = false;
          this.counter++;
        },
      },
      PublishedChanges.name,
    );
  }

  /** The current value; a cached page is fresh only while this is unchanged and `live`. */
  get generation(): number {
    return this.counter;
  }

  get live(): boolean {
    if (!this.started) {
      this.started = true;
      void this.listener.start();
    }
    return this.listening;
  }

  /** For this process's own writes (the NOTIFY of the commit follows). */
  touched(): void {
    this.counter++;
  }

  async onModuleDestroy(): Promise<void> {
    this.listening = false;
    await this.listener.stop();
  }
}
