import { InvalidError } from '@app/common';
import { FEEDBACK_RATINGS, SITE_EVENT_TYPES, canonicalRef } from './site-event';

/** The columns events are counted by (a subset of GitBook's `SiteInsightsQueryEventsColumn`), each a dimension of the daily counts. */
export const DIMENSIONS = ['eventType', 'page', 'siteSpace', 'siteSection', 'urlPath', 'referrerDomain', 'displayContext', 'eventSearchQuery', 'eventPageFeedbackRating', 'eventLinkTargetValue'] as const;
export type Dimension = (typeof DIMENSIONS)[number];
export const METRICS = ['eventsCount', 'sessionsCount', 'visitorsCount'] as const;
export type Metric = (typeof METRICS)[number];
export type Interval = 'hour' | 'day' | 'week' | 'month';

const PRESETS: Record<string, number> = { last24Hours: 1, last7Days: 7, last30Days: 30, last3Months: 91, lastYear: 365 };
const DAY_MS = 24 * 60 * 60 * 1000;
/** Hour buckets come from the events themselves, which are kept a month: a week at most. */
const HOURLY_RANGE_DAYS = 7;

export interface ValueFilter {
  operator: 'in' | 'notIn';
  values: string[];
}

/**
 * What `aggregateSiteEvents` asks, checked and reduced to what the counts can answer: metrics
 * over a range, optionally per time bucket and per one dimension, filtered by event type, by
 * values of the grouped dimension, and (for pages) by feedback rating.
 */
export interface AggregationPlan {
  from: Date;
  to: Date;
  metrics: Metric[];
  interval: Interval | null;
  groupBy: Dimension | null;
  eventTypes: ValueFilter | null;
  values: ValueFilter | null;
  /** Feedback ratings (pages rated `bad`): a detail of page counts and of ratings themselves. */
  ratings: string[] | null;
  /** Only searches that found nothing (an extension: `eventSearchResultsCount` = 0). */
  noResults: boolean;
  order: { by: Metric | 'datetime' | Dimension; direction: 'asc' | 'desc' };
  limit: number;
  /** The column names of the answer, in order. */
  columns: Array<'datetime' | Dimension | Metric>;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const oneOf = <T extends string>(allowed: readonly T[], value: unknown, where: string): T => {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) throw new InvalidError(`${where}: one of ${allowed.join(', ')}`);
  return value as T;
};

export function planAggregation(input: unknown, now: Date): AggregationPlan {
  if (!isObject(input)) throw new InvalidError('Expected a SiteInsightsQueryEventsAggregation object');
  const { from, to } = range(input.range, now);
  const select = input.select === undefined ? [{ column: 'eventsCount' }] : input.select;
  if (!Array.isArray(select) || select.length === 0) throw new InvalidError('select: a non-empty array of columns');
  const metrics: Metric[] = [];
  let interval: Interval | null = null;
  let groupBy: Dimension | null = null;
  const group = (column: Record<string, unknown>, where: string) => {
    if (column.column === 'datetime') {
      interval = column.interval === undefined ? 'day' : oneOf(['hour', 'day', 'week', 'month'] as const, column.interval, `${where}.interval`);
    } else {
      const dimension = oneOf(DIMENSIONS, column.column, `${where}.column (a metric, datetime, or one of the dimensions)`);
      if (groupBy && groupBy !== dimension) throw new InvalidError(`${where}: counts are grouped by one dimension besides datetime; ${groupBy} is already one`);
      groupBy = dimension;
    }
  };
  select.forEach((column, i) => {
    if (!isObject(column)) throw new InvalidError(`select[${i}]: expected {column}`);
    if ((METRICS as readonly unknown[]).includes(column.column)) metrics.push(column.column as Metric);
    else group(column, `select[${i}]`);
  });
  if (input.groupBy !== undefined) {
    if (!Array.isArray(input.groupBy)) throw new InvalidError('groupBy: an array of columns');
    input.groupBy.forEach((column, i) => (isObject(column) ? group(column, `groupBy[${i}]`) : (() => { throw new InvalidError(`groupBy[${i}]: expected {column}`); })()));
  }
  if (metrics.length === 0) metrics.push('eventsCount');
  if (interval === 'hour' && to.getTime() - from.getTime() > HOURLY_RANGE_DAYS * DAY_MS) throw new InvalidError(`datetime.interval: hour buckets cover at most ${HOURLY_RANGE_DAYS} days`);

  let eventTypes: ValueFilter | null = null;
  let values: ValueFilter | null = null;
  let ratings: string[] | null = null;
  let noResults = false;
  const where = input.where === undefined ? [] : input.where;
  if (!Array.isArray(where)) throw new InvalidError('where: an array of filters');
  where.forEach((filter, i) => {
    const at = `where[${i}]`;
    if (!isObject(filter) || !Array.isArray(filter.values)) throw new InvalidError(`${at}: expected {column, values, operator?}`);
    const operator = filter.operator === undefined ? 'in' : oneOf(['in', 'notIn'] as const, filter.operator, `${at}.operator (in or notIn here)`);
    const list = filter.values.map((value) => encodeValue(String(filter.column), value, `${at}.values`));
    if (filter.column === 'eventSearchResultsCount') {
      if (list.length !== 1 || list[0] !== '0' || operator !== 'in') throw new InvalidError(`${at}: eventSearchResultsCount filters searches that found nothing: values [0]`);
      noResults = true;
    } else if (filter.column === 'eventType') {
      list.forEach((value) => oneOf(SITE_EVENT_TYPES, value, `${at}.values`));
      eventTypes = { operator, values: list };
    } else if (filter.column === 'eventPageFeedbackRating' || filter.column === 'pageFeedbackRating') {
      list.forEach((value) => oneOf(FEEDBACK_RATINGS, value, `${at}.values`));
      if (operator !== 'in') throw new InvalidError(`${at}.operator: ratings are filtered with in`);
      ratings = list;
    } else if (filter.column === groupBy) {
      values = { operator, values: list };
    } else {
      throw new InvalidError(`${at}.column: filter by eventType, a feedback rating, or the dimension the counts are grouped by (${groupBy ?? 'none'})`);
    }
  });
  if (ratings && groupBy !== null && groupBy !== 'page' && groupBy !== 'eventPageFeedbackRating') throw new InvalidError('where: ratings filter counts grouped by page or by rating');
  if (noResults && groupBy !== null && groupBy !== 'eventSearchQuery') throw new InvalidError('where: eventSearchResultsCount filters counts grouped by eventSearchQuery');

  const columns: AggregationPlan['columns'] = [...(interval ? (['datetime'] as const) : []), ...(groupBy ? [groupBy] : []), ...metrics];
  let order: AggregationPlan['order'] = interval ? { by: 'datetime', direction: 'asc' } : { by: metrics[0], direction: 'desc' };
  if (input.order !== undefined) {
    if (!isObject(input.order) || !isObject(input.order.by)) throw new InvalidError('order: {by: {column}, direction}');
    const by = input.order.by.column;
    if (!(columns as readonly unknown[]).includes(by)) throw new InvalidError(`order.by: one of the selected columns (${columns.join(', ')})`);
    order = { by: by as AggregationPlan['order']['by'], direction: oneOf(['asc', 'desc'] as const, input.order.direction, 'order.direction') };
  }
  const limit = input.limit === undefined ? 1000 : Number(input.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new InvalidError('limit: an integer from 1 to 1000');
  return { from, to, metrics, interval, groupBy, eventTypes, values, ratings, noResults, order, limit, columns };
}

/**
 * A dimension's value as the counts store it: a page is `{page, space}` in the contract and
 * `space/page` here; a link target is a content reference, kept as canonical JSON.
 */
export function encodeValue(dimension: string, value: unknown, where: string): string {
  if (dimension === 'page') {
    if (!isObject(value) || typeof value.page !== 'string' || typeof value.space !== 'string') throw new InvalidError(`${where}: pages are {page, space}`);
    return `${value.space}/${value.page}`;
  }
  if (dimension === 'eventLinkTargetValue') {
    const ref = isObject(value) ? canonicalRef(value) : null;
    if (!ref) throw new InvalidError(`${where}: link targets are content references ({kind, ...})`);
    return ref;
  }
  return String(value);
}

/** The inverse of encodeValue, for answers. */
export function decodeValue(dimension: string | null, stored: unknown): unknown {
  if (typeof stored !== 'string') return stored;
  if (dimension === 'page') {
    const slash = stored.indexOf('/');
    return { space: stored.slice(0, slash), page: stored.slice(slash + 1) };
  }
  if (dimension === 'eventLinkTargetValue') return JSON.parse(stored);
  return stored;
}

function range(value: unknown, now: Date): { from: Date; to: Date } {
  if (typeof value === 'string') {
    const days = PRESETS[value];
    if (!days) throw new InvalidError(`range: one of ${Object.keys(PRESETS).join(', ')}, or {from, to}`);
    return { from: new Date(now.getTime() - days * DAY_MS), to: now };
  }
  if (!isObject(value)) throw new InvalidError('range: required (a preset or {from, to})');
  const from = new Date(String(value.from));
  const to = new Date(String(value.to));
  if (Number.isNaN(from.getTime()) || Number.isNaN(to.getTime()) || from > to) throw new InvalidError('range: from and to are dates, from first');
  return { from, to };
}
