import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { Tx } from '../../../database/transactions';
import { AggregationPlan } from '../domain/aggregation';
import type { SiteEvent } from '../domain/site-event';

/** An event as stored: the reader's identifiers already hashed with the day's salt. */
export type StoredEvent = Omit<SiteEvent, 'visitorKey' | 'sessionKey'> & { siteId: string; visitor: string; session: string };

const COLUMNS = [
  'site_id', 'occurred_at', 'day', 'type', 'visitor', 'session', 'display_context', 'site_section_id', 'site_space_id', 'space_id', 'page_id',
  'url_path', 'referrer_domain', 'search_query', 'search_results', 'rating', 'comment', 'link_target', 'claims',
] as const;

/**
 * Each dimension of the daily counts: the expression giving its value and, for pages and
 * searches, its detail (a page's feedback rating; `none` for a search that found nothing).
 */
const DIMENSION_SQL: Record<string, { value: string; detail?: string; where?: string }> = {
  // The totals, per event type (what grouping by eventType reads).
  '': { value: "''" },
  page: { value: "space_id || '/' || page_id", detail: "coalesce(rating, '')" },
  siteSpace: { value: 'site_space_id' },
  siteSection: { value: 'site_section_id' },
  urlPath: { value: 'url_path' },
  referrerDomain: { value: 'referrer_domain' },
  displayContext: { value: 'display_context' },
  eventSearchQuery: { value: 'search_query', detail: "CASE WHEN search_results = 0 THEN 'none' ELSE '' END" },
  eventPageFeedbackRating: { value: 'rating' },
  eventLinkTargetValue: { value: 'link_target' },
};

/** A UTC bucket start of `interval`, whatever the session's time zone. */
const bucket = (interval: string, fromEvents: boolean) =>
  `date_trunc('${interval}', ${fromEvents ? "occurred_at AT TIME ZONE 'UTC'" : 'day::timestamp'}) AT TIME ZONE 'UTC'`;
const METRIC_SQL: Record<string, { counts: string; events: string }> = {
  eventsCount: { counts: 'coalesce(sum(events), 0)', events: 'count(*)' },
  sessionsCount: { counts: 'coalesce(sum(sessions), 0)', events: 'count(DISTINCT session)' },
  visitorsCount: { counts: 'coalesce(sum(visitors), 0)', events: 'count(DISTINCT visitor)' },
};

@Injectable()
export class InsightsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** One statement for a whole batch. */
  async insertEvents(events: StoredEvent[]): Promise<void> {
    if (events.length === 0) return;
    const params: unknown[] = [];
    const rows = events.map((event) => {
      const values = [
        event.siteId, event.occurredAt, event.occurredAt.toISOString().slice(0, 10), event.type, event.visitor, event.session, event.displayContext,
        event.siteSectionId, event.siteSpaceId, event.spaceId, event.pageId, event.urlPath, event.referrerDomain, event.searchQuery,
        event.searchResults, event.rating, event.comment, event.linkTarget, event.claims ? JSON.stringify(event.claims) : null,
      ];
      return `(${values.map((value) => (params.push(value), `$${params.length}`)).join(', ')})`;
    });
    await this.dataSource.query(`INSERT INTO site_insight_events (${COLUMNS.join(', ')}) VALUES ${rows.join(', ')}`, params);
  }

  /** The salt of `day`, made by whichever process asks first. */
  async saltOf(day: string): Promise<string> {
    await this.dataSource.query('INSERT INTO site_insight_salts (day, salt) VALUES ($1, $2) ON CONFLICT (day) DO NOTHING', [day, randomBytes(32).toString('base64url')]);
    const [row] = await this.dataSource.query('SELECT salt FROM site_insight_salts WHERE day = $1', [day]);
    return row.salt as string;
  }

  /** Salts of days before `day` go: their hashes can never be linked to a reader again. */
  async dropSaltsBefore(day: string): Promise<void> {
    await this.dataSource.query('DELETE FROM site_insight_salts WHERE day < $1', [day]);
  }

  /**
   * Rebuilds the daily counts of every (site, day) that received events since the last run, from
   * the events themselves, so a run repeated or interrupted changes nothing more than one. Events
   * younger than `settleMs` wait for the next run (a batch still committing may hold lower ids).
   */
  async rollup(tx: Tx, settleMs: number, maxEvents: number): Promise<{ days: number; events: number }> {
    await tx.query('INSERT INTO site_insight_rollup_state (id, last_event_id) VALUES (1, 0) ON CONFLICT (id) DO NOTHING');
    const [{ last_event_id: last }] = await tx.query('SELECT last_event_id FROM site_insight_rollup_state WHERE id = 1 FOR UPDATE');
    const [{ upto }] = await tx.query(
      `SELECT max(id) AS upto FROM (SELECT id FROM site_insight_events WHERE id > $1 AND received_at < now() - make_interval(secs => $2) ORDER BY id LIMIT $3) batch`,
      [last, settleMs / 1000, maxEvents],
    );
    if (upto === null) return { days: 0, events: 0 };
    const touched: Array<{ site_id: string; day: string }> = await tx.query(
      'SELECT DISTINCT site_id, day::text AS day FROM site_insight_events WHERE id > $1 AND id <= $2',
      [last, upto],
    );
    for (const { site_id: siteId, day } of touched) {
      await tx.query('DELETE FROM site_insight_counts WHERE site_id = $1 AND day = $2', [siteId, day]);
      const selects = Object.entries(DIMENSION_SQL).map(
        ([dimension, sql]) =>
          // Per event type, and across all of them ('*'): distinct sessions and visitors do not add up over types.
          `SELECT '${dimension}', CASE WHEN GROUPING(type) = 1 THEN '*' ELSE type END, v, d, count(*), count(DISTINCT session), count(DISTINCT visitor)
             FROM (SELECT type, ${sql.value} AS v, ${sql.detail ?? "''"} AS d, session, visitor FROM site_insight_events
                    WHERE site_id = $1 AND day = $2 AND (${sql.value}) IS NOT NULL) e
            GROUP BY GROUPING SETS ((type, v, d), (v, d))`,
      );
      await tx.query(
        `INSERT INTO site_insight_counts (dimension, event_type, value, detail, events, sessions, visitors, site_id, day)
         SELECT d.*, $1, $2::date FROM (${selects.join(' UNION ALL ')}) AS d`,
        [siteId, day],
      );
    }
    const [{ events }] = await tx.query('SELECT count(*)::int AS events FROM site_insight_events WHERE id > $1 AND id <= $2', [last, upto]);
    await tx.query('UPDATE site_insight_rollup_state SET last_event_id = $1 WHERE id = 1', [upto]);
    return { days: touched.length, events };
  }

  /** Events older than `eventsBefore` and daily counts older than `countsBefore` go. */
  async prune(eventsBefore: Date, countsBefore: string): Promise<{ events: number; counts: number }> {
    const [, events] = await this.dataSource.query('DELETE FROM site_insight_events WHERE occurred_at < $1', [eventsBefore]);
    const [, counts] = await this.dataSource.query('DELETE FROM site_insight_counts WHERE day < $1', [countsBefore]);
    return { events: Number(events) || 0, counts: Number(counts) || 0 };
  }

  /**
   * Answers a plan: from the daily counts, or, for hour buckets, from the events of the range.
   * Rows come back as `[bucket?, value?, ...metrics]`.
   */
  async aggregate(siteId: string, plan: AggregationPlan): Promise<unknown[][]> {
    const fromEvents = plan.interval === 'hour';
    const dimension = plan.groupBy === 'eventType' ? '' : (plan.groupBy ?? (plan.ratings ? 'eventPageFeedbackRating' : plan.noResults ? 'eventSearchQuery' : ''));
    const params: unknown[] = [siteId];
    const param = (value: unknown) => (params.push(value), `$${params.length}`);
    const where: string[] = ['site_id = $1'];
    const select: string[] = [];
    const groupBy: string[] = [];
    const valueSql = plan.groupBy === 'eventType' ? (fromEvents ? 'type' : 'event_type') : fromEvents ? (DIMENSION_SQL[dimension]?.value ?? "''") : 'value';
    if (fromEvents) {
      where.push(`occurred_at >= ${param(plan.from)}`, `occurred_at <= ${param(plan.to)}`);
      if (dimension) where.push(`(${DIMENSION_SQL[dimension].value}) IS NOT NULL`);
    } else {
      where.push(`dimension = ${param(dimension)}`, `day >= ${param(plan.from.toISOString().slice(0, 10))}::date`, `day <= ${param(plan.to.toISOString().slice(0, 10))}::date`);
    }
    const typeColumn = fromEvents ? 'type' : 'event_type';
    if (plan.eventTypes) where.push(`${plan.eventTypes.operator === 'in' ? '' : 'NOT '}${typeColumn} = ANY(${param(plan.eventTypes.values)})`);
    // The counts hold each day per type and across types ('*'); several types are summed (their readers may overlap).
    if (!fromEvents) where.push(plan.eventTypes || plan.groupBy === 'eventType' ? `event_type <> '*'` : `event_type = '*'`);
    if (plan.values && plan.groupBy) where.push(`${plan.values.operator === 'in' ? '' : 'NOT '}${valueSql} = ANY(${param(plan.values.values)})`);
    if (plan.ratings) {
      const detail = dimension === 'page' ? (fromEvents ? 'rating' : 'detail') : fromEvents ? 'rating' : 'value';
      where.push(`${detail} = ANY(${param(plan.ratings)})`);
    }
    if (plan.noResults) where.push(fromEvents ? 'search_results = 0' : `detail = 'none'`);
    if (plan.interval) {
      // Aliases no column has: GROUP BY would read a column of the same name first.
      select.push(`${bucket(plan.interval, fromEvents)} AS group_bucket`);
      groupBy.push('group_bucket');
    }
    if (plan.groupBy) {
      select.push(`${valueSql} AS group_value`);
      groupBy.push('group_value');
    }
    for (const metric of plan.metrics) select.push(`${fromEvents ? METRIC_SQL[metric].events : METRIC_SQL[metric].counts}::float8 AS "${metric}"`);
    const orderColumn = plan.order.by === 'datetime' ? 'group_bucket' : plan.order.by === plan.groupBy ? 'group_value' : `"${plan.order.by}"`;
    const sql =
      `SELECT ${select.join(', ')} FROM ${fromEvents ? 'site_insight_events' : 'site_insight_counts'} WHERE ${where.join(' AND ')}` +
      `${groupBy.length ? ` GROUP BY ${groupBy.join(', ')}` : ''} ORDER BY ${orderColumn} ${plan.order.direction.toUpperCase()}${groupBy.length ? `, ${groupBy[0]}` : ''} LIMIT ${param(plan.limit)}`;
    const rows: Array<Record<string, unknown>> = await this.dataSource.query(sql, params);
    return rows.map((row) => [...(plan.interval ? [row.group_bucket] : []), ...(plan.groupBy ? [row.group_value] : []), ...plan.metrics.map((metric) => row[metric])]);
  }

  /** The visitor segments of the last `days`: events grouped by the claims of signed-in visitors (anonymous ones together). */
  async segments(siteId: string, since: Date, limit: number): Promise<Array<{ claims: Record<string, unknown> | null; events: number; sessions: number; visitors: number }>> {
    const rows = await this.dataSource.query(
      `SELECT claims, count(*)::int AS events, count(DISTINCT session)::int AS sessions, count(DISTINCT (day, visitor))::int AS visitors
         FROM site_insight_events WHERE site_id = $1 AND occurred_at >= $2 GROUP BY claims ORDER BY events DESC LIMIT $3`,
      [siteId, since, limit],
    );
    return rows;
  }
}
