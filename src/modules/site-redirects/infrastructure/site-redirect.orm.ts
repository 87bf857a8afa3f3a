import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { idColumn, primaryIdColumn, timestampColumn } from '../../../database/columns';
import type { RedirectDestination } from '../domain/site-redirect';

/**
 * A redirect of a site: readers asking for `source` (a path under the site, with an optional
 * trailing `*`) who find no page there are sent to `destination`. A source has at most one live
 * and one draft redirect. `source` is compared byte by byte (collation "C"), so its index serves
 * both exact and prefix matches and the `source` order.
 */
@Entity('site_redirects')
@Index('site_redirects_source_key', ['siteId', 'draft', 'source'], { unique: true })
@Index('site_redirects_created_idx', ['siteId', 'draft', 'createdAt', 'id'])
@Index('site_redirects_changed_idx', ['siteId', 'draft', 'changedAt', 'id'])
export class SiteRedirectOrm {
  @PrimaryColumn(primaryIdColumn())
  id: string;

  @Column(idColumn({ name: 'site_id' }))
  @ForeignKey('sites', { onDelete: 'CASCADE' })
  siteId: string;

  @Column({ type: 'varchar', length: 512, collation: 'C' })
  source: string;

  @Column({ type: 'boolean' })
  draft: boolean;

  @Column({ name: 'capture_wildcard', type: 'boolean' })
  captureWildcard: boolean;

  @Column({ type: 'boolean' })
  permanent: boolean;

  @Column({ type: 'jsonb' })
  destination: RedirectDestination;

  @Column(timestampColumn({ name: 'created_at' }))
  createdAt: Date;

  /** Absent until the redirect is first updated. */
  @Column(timestampColumn({ name: 'updated_at', nullable: true }))
  updatedAt: Date | null;

  /** `updatedAt`, else `createdAt`: the `updatedAt` order's key, never null. */
  @Column(timestampColumn({ name: 'changed_at' }))
  changedAt: Date;
}
