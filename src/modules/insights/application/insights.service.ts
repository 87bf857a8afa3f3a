import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, InvalidError, NotFoundError } from '@app/common';
import { User } from '../../identity/domain/user';
import { PublishedSitesService } from '../../sites/application/published-sites.service';
import { SitesService } from '../../sites/application/sites.service';
import { decodeValue, planAggregation } from '../domain/aggregation';
import { AnswerRating, SiteEvent, answerRatings, observedEvent, parseTrackedEvents, pathOf } from '../domain/site-event';
import { InsightsRepository } from '../infrastructure/insights.repository';
import { InsightsRecorder } from './insights-recorder';

const SEGMENT_DAYS = 30;

export interface AggregationResult {
  columns: Array<{ column: string; values: unknown[] }>;
}

export interface VisitorSegment {
  title: string;
  claims: Record<string, unknown>;
  events: number;
  visitors: number;
  sessions: number;
}

/**
 * Site insights: what readers of a published site do (page views, searches and what they found,
 * link clicks, feedback), recorded without cookies or addresses, and counted for the site's team.
 */
@Injectable()
export class InsightsService {
  private readonly ratingListeners: Array<(siteId: string, ratings: AnswerRating[]) => Promise<void>> = [];
  private readonly feedbackListeners: Array<(organizationId: string, siteId: string, feedback: SiteEvent[]) => Promise<void>> = [];

  constructor(
    private readonly sites: SitesService,
    private readonly published: PublishedSitesService,
    private readonly recorder: InsightsRecorder,
    private readonly repository: InsightsRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * `trackEventsInSiteById`, as GitBook's renderer calls it: the site must be published. Ids in an
   * event's location that are not the site's (site spaces, sections, spaces) are dropped, so one
   * site's counts never name another's content. `fallbackVisitor` (the caller's address and browser)
   * stands for sessions without identifiers; it is hashed like them.
   */
  async track(organizationId: string, siteId: string, body: unknown, fallbackVisitor: string): Promise<void> {
    const events = parseTrackedEvents(body, this.clock.now(), fallbackVisitor);
    const found = await this.published.publishedStructure(organizationId, siteId);
    if (!found) throw NotFoundError.of('Site', siteId);
    const siteSpaces = new Set(found.rows.siteSpaces.map((s) => s.id));
    const sections = new Set(found.rows.sections.map((s) => s.id));
    const spaces = new Set(found.rows.siteSpaces.map((s) => s.spaceId));
    const own = (event: SiteEvent): SiteEvent => ({
      ...event,
      siteSpaceId: event.siteSpaceId && siteSpaces.has(event.siteSpaceId) ? event.siteSpaceId : null,
      siteSectionId: event.siteSectionId && sections.has(event.siteSectionId) ? event.siteSectionId : null,
      spaceId: event.spaceId && spaces.has(event.spaceId) ? event.spaceId : null,
      pageId: event.spaceId && spaces.has(event.spaceId) ? event.pageId : null,
    });
    const kept = events.map(own);
    await this.recorder.record(siteId, kept);
    const ratings = answerRatings(body);
    if (ratings.length) for (const listener of this.ratingListeners) await listener(siteId, ratings);
    const feedback = kept.filter((event) => (event.type === 'page_post_feedback' || event.type === 'page_post_feedback_comment') && event.rating);
    if (feedback.length) for (const listener of this.feedbackListeners) await listener(organizationId, siteId, feedback);
  }

  /** Readers' page feedback (`page_post_feedback` events, as kept) goes to `listener` too (integrations hear it). */
  onPageFeedback(listener: (organizationId: string, siteId: string, feedback: SiteEvent[]) => Promise<void>): void {
    this.feedbackListeners.push(listener);
  }

  /** Readers' ratings of Ask answers (`ask_rate_response` events) go to `listener` too (Ask keeps them with its answers). */
  onAnswerRated(listener: (siteId: string, ratings: AnswerRating[]) => Promise<void>): void {
    this.ratingListeners.push(listener);
  }

  /** What this server observed itself (a page shown, a search and how many results it found), as of now. */
  async recordServed(siteId: string, events: Array<Omit<SiteEvent, 'occurredAt'>>): Promise<void> {
    const now = this.clock.now();
    await this.recorder.record(siteId, events.map((event) => ({ ...event, occurredAt: now })));
  }

  /** `aggregateSiteEvents`, for members who can see the site: columns of values, one row per group. */
  async aggregate(caller: User, organizationId: string, siteId: string, body: unknown): Promise<AggregationResult> {
    await this.sites.get(caller, organizationId, siteId);
    return this.aggregateSite(siteId, body);
  }

  /** The same, for a use case that checked the caller already (or runs for the site itself: a scan). */
  async aggregateSite(siteId: string, body: unknown): Promise<AggregationResult> {
    const plan = planAggregation(body, this.clock.now());
    const rows = await this.repository.aggregate(siteId, plan);
    return {
      columns: plan.columns.map((column, i) => ({
        column,
        values: rows.map((row) => (column === 'datetime' ? new Date(row[i] as string).toISOString() : column === plan.groupBy ? decodeValue(column, row[i]) : row[i])),
      })),
    };
  }

  /** What a docs team acts on first: the searches that found nothing, most asked first. */
  async searchesWithoutResults(caller: User, organizationId: string, siteId: string, range: unknown): Promise<Array<{ query: string; searches: number; visitors: number }>> {
    await this.sites.get(caller, organizationId, siteId);
    return this.searchesWithoutResultsOf(siteId, range);
  }

  async searchesWithoutResultsOf(siteId: string, range: unknown): Promise<Array<{ query: string; searches: number; visitors: number }>> {
    const { columns } = await this.aggregateSite(siteId, {
      range: range ?? 'last30Days',
      select: [{ column: 'eventSearchQuery' }, { column: 'eventsCount' }, { column: 'visitorsCount' }],
      where: [{ column: 'eventSearchResultsCount', values: [0] }],
      limit: 100,
    });
    return columns[0].values.map((query, i) => ({ query: String(query), searches: Number(columns[1].values[i]), visitors: Number(columns[2].values[i]) }));
  }

  /** ... and the pages readers rated unhelpful (`bad`), most often first. */
  async unhelpfulPages(caller: User, organizationId: string, siteId: string, range: unknown): Promise<Array<{ page: { page: string; space: string }; ratings: number }>> {
    await this.sites.get(caller, organizationId, siteId);
    return this.unhelpfulPagesOf(siteId, range);
  }

  async unhelpfulPagesOf(siteId: string, range: unknown): Promise<Array<{ page: { page: string; space: string }; ratings: number }>> {
    const { columns } = await this.aggregateSite(siteId, {
      range: range ?? 'last30Days',
      select: [{ column: 'page' }, { column: 'eventsCount' }],
      where: [{ column: 'eventType', values: ['page_post_feedback', 'page_post_feedback_comment'] }, { column: 'eventPageFeedbackRating', values: ['bad'] }],
      limit: 100,
    });
    return columns[0].values.map((page, i) => ({ page: page as { page: string; space: string }, ratings: Number(columns[1].values[i]) }));
  }

  /** `listSiteVisitorSegments`: the last 30 days' events by the claims of signed-in visitors, anonymous readers as one segment. */
  async segments(caller: User, organizationId: string, siteId: string): Promise<VisitorSegment[]> {
    await this.sites.get(caller, organizationId, siteId);
    const since = new Date(this.clock.now().getTime() - SEGMENT_DAYS * 24 * 60 * 60 * 1000);
    const rows = await this.repository.segments(siteId, since, 100);
    return rows.map((row) => ({
      title: row.claims ? segmentTitle(row.claims) : 'Anonymous visitors',
      claims: row.claims ?? {},
      events: row.events,
      visitors: row.visitors,
      sessions: row.sessions,
    }));
  }

  /** `submitSiteAgentFeedback`: an AI agent's note on the site's content, kept as an `agent_feedback` event. */
  async agentFeedback(caller: User, organizationId: string, siteId: string, input: { feedback?: unknown; goal?: unknown; url?: unknown; spaceId?: unknown; pageId?: unknown }): Promise<void> {
    const { site } = await this.sites.get(caller, organizationId, siteId);
    if (typeof input.feedback !== 'string' || input.feedback.length < 1 || input.feedback.length > 2048) throw new InvalidError('feedback: 1 to 2048 characters');
    const goal = typeof input.goal === 'string' ? input.goal.slice(0, 1024) : null;
    await this.recordServed(site.id, [
      observedEvent({
        type: 'agent_feedback',
        visitorKey: `agent:${caller.id}`,
        sessionKey: `agent:${caller.id}`,
        displayContext: 'server',
        spaceId: typeof input.spaceId === 'string' ? input.spaceId.slice(0, 64) : null,
        pageId: typeof input.pageId === 'string' ? input.pageId.slice(0, 64) : null,
        urlPath: typeof input.url === 'string' ? pathOf(input.url) : null,
        comment: goal ? `${input.feedback}\n\nGoal: ${goal}` : input.feedback,
      }),
    ]);
  }
}

function segmentTitle(claims: Record<string, unknown>): string {
  const entries = Object.entries(claims).filter(([key]) => key !== 'unsigned');
  return entries.length ? entries.map(([key, value]) => `${key}: ${typeof value === 'object' ? JSON.stringify(value) : String(value)}`).join(', ').slice(0, 200) : 'Signed-in visitors';
}
