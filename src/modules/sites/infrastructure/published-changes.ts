import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { NotifiedGeneration } from '../../../database/notified-generation';

/** The channel the `sites` and `site_share_links` triggers notify on commit (migration PublishedSitesNotify). */
export const PUBLISHED_CHANNEL = 'published_sites';

/**
 * A counter that moves whenever anything a published page depends on may have changed: a site,
 * its structure or share links, or a space it shows (which bumps the site's version). Writes in
 * this process move it at once (`touched`); writes anywhere else (another replica, the worker)
 * reach it by PostgreSQL's LISTEN/NOTIFY when they commit. Readers' pages cached under an older
 * value are never served, nor any while the listening connection is down.
 */
@Injectable()
export class PublishedChanges extends NotifiedGeneration implements OnModuleDestroy {
  constructor(dataSource: DataSource) {
    super(dataSource, PUBLISHED_CHANNEL, PublishedChanges.name);
  }
}
