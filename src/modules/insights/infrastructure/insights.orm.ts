import { Column, Entity, ForeignKey, Index, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
import { idColumn, primaryIdColumn, timestampColumn } from '../../../database/columns';

/**
 * One reader event of a published site, kept INSIGHTS_EVENTS_RETENTION_DAYS. `visitor` and
 * `session` are hashes salted with a salt of that day only (and deleted after it), so the same reader
 * cannot be followed from one day to the next, and no address or cookie is stored. The one exception
 * is `claims`: what a visitor-auth site's own sign-in says of a signed-in reader, kept for visitor
 * segments.
 */
@Entity('site_insight_events')
@Index('site_insight_events_site_day_idx', ['siteId', 'day'])
@Index('site_insight_events_occurred_idx', ['occurredAt'])
@Index('site_insight_events_received_idx', ['receivedAt', 'id'])
export class SiteInsightEventOrm {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: string;

  @Column(idColumn({ name: 'site_id' }))
  @ForeignKey('sites', { onDelete: 'CASCADE' })
  siteId: string;

  @Column(timestampColumn({ name: 'received_at', default: () => 'now()' }))
  receivedAt: Date;

  @Column(timestampColumn({ name: 'occurred_at' }))
  occurredAt: Date;

  /** The UTC day of `occurredAt`: the daily counts' key. */
  @Column({ type: 'date' })
  day: string;

  @Column({ type: 'varchar', length: 32 })
  type: string;

  @Column({ type: 'varchar', length: 32 })
  visitor: string;

  @Column({ type: 'varchar', length: 32 })
  session: string;

  @Column({ name: 'display_context', type: 'varchar', length: 8 })
  displayContext: string;

  @Column({ name: 'site_section_id', type: 'varchar', length: 64, nullable: true })
  siteSectionId: string | null;

  @Column({ name: 'site_space_id', type: 'varchar', length: 64, nullable: true })
  siteSpaceId: string | null;

  @Column({ name: 'space_id', type: 'varchar', length: 64, nullable: true })
  spaceId: string | null;

  @Column({ name: 'page_id', type: 'varchar', length: 64, nullable: true })
  pageId: string | null;

  @Column({ name: 'url_path', type: 'varchar', length: 512, nullable: true })
  urlPath: string | null;

  @Column({ name: 'referrer_domain', type: 'varchar', length: 255, nullable: true })
  referrerDomain: string | null;

  @Column({ name: 'search_query', type: 'varchar', length: 256, nullable: true })
  searchQuery: string | null;

  @Column({ name: 'search_results', type: 'integer', nullable: true })
  searchResults: number | null;

  @Column({ type: 'varchar', length: 4, nullable: true })
  rating: string | null;

  @Column({ type: 'text', nullable: true })
  comment: string | null;

  @Column({ name: 'link_target', type: 'varchar', length: 1024, nullable: true })
  linkTarget: string | null;

  @Column({ type: 'jsonb', nullable: true })
  claims: Record<string, unknown> | null;
}

/**
 * A site's events of one UTC day counted by one dimension (page, search query, referrer, ...)
 * and event type, rebuilt from the events by the worker. Aggregates read these rows, never the
 * events (but for hour buckets), so their cost follows days times distinct values, not events.
 * `visitors` and `sessions` are distinct within the day: salts change daily, so a reader of two
 * days counts twice, by design.
 */
@Entity('site_insight_counts')
export class SiteInsightCountOrm {
  @PrimaryColumn(primaryIdColumn({ name: 'site_id' }))
  @ForeignKey('sites', { onDelete: 'CASCADE' })
  siteId: string;

  /** '' for the totals. */
  @PrimaryColumn({ type: 'varchar', length: 24 })
  dimension: string;

  /** '*' for all types together. Before the day in the key: aggregates filter by type, then read a range of days. */
  @PrimaryColumn({ name: 'event_type', type: 'varchar', length: 32 })
  eventType: string;

  @PrimaryColumn({ type: 'date' })
  day: string;

  @PrimaryColumn({ type: 'varchar', length: 1024, collation: 'C' })
  value: string;

  /** A refinement of the value: a page's feedback rating; `none` for a search that found nothing. */
  @PrimaryColumn({ type: 'varchar', length: 8 })
  detail: string;

  @Column({ type: 'integer' })
  events: number;

  @Column({ type: 'integer' })
  sessions: number;

  @Column({ type: 'integer' })
  visitors: number;
}

/** How far the daily counts have read the events (their id). */
@Entity('site_insight_rollup_state')
export class SiteInsightRollupStateOrm {
  @PrimaryColumn({ type: 'smallint' })
  id: number;

  @Column({ name: 'last_event_id', type: 'bigint' })
  lastEventId: string;
}

/** The salt of one UTC day's visitor hashes; deleted once the day is over, so the hashes cannot be linked again. */
@Entity('site_insight_salts')
export class SiteInsightSaltOrm {
  @PrimaryColumn({ type: 'date' })
  day: string;

  @Column({ type: 'varchar', length: 64 })
  salt: string;
}
