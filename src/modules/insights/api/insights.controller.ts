import { Body, Controller, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { SEARCHES_WITHOUT_RESULTS_SCHEMA, UNHELPFUL_PAGES_SCHEMA } from './insights.schemas';
import type { Request } from 'express';
import { CurrentUser, Public } from '../../identity/api/auth.decorators';
import { User } from '../../identity/domain/user';
import { InsightsService } from '../application/insights.service';
import { AggregateSiteEventsDto, SiteAgentFeedbackDto, TrackSiteEventsDto } from './dto/insights.dto';

const RANGE = { name: 'range', required: false, description: 'A preset: `last24Hours`, `last7Days`, `last30Days` (default), `last3Months`, `lastYear`' };

/** Site insights: readers' events in (from GitBook's renderer and our own reader pages), counts out to the site's members. */
@ApiTags('site-insights')
@Controller('orgs/:organizationId/sites/:siteId')
export class InsightsController {
  constructor(private readonly insights: InsightsService) {}

  @Post('insights/events')
  @Public()
  @HttpCode(204)
  @ApiOperation({
    operationId: 'trackEventsInSiteById',
    summary: "Record readers' events of a published site (no token needed, as a renderer sends them)",
    description:
      'Answers 204 before the events are written (they are written in batches within INSIGHTS_FLUSH_MS). No cookie or address is ' +
      "stored: the session's visitor and session ids (or, without them, the caller's address and browser) are hashed with a salt " +
      "of the day that is deleted once the day is over. Ids in a location that are not the site's own are dropped. 404 when the " +
      'site is not published.',
  })
  async track(@Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Body() body: TrackSiteEventsDto, @Req() req: Request) {
    await this.insights.track(organizationId, siteId, body, `${req.ip ?? ''}|${req.headers['user-agent'] ?? ''}`);
  }

  @Post('insights/events/aggregate')
  @ApiBearerAuth()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'aggregateSiteEvents',
    summary: "Count the site's events over a range, by time bucket and one dimension",
    description:
      'Members who can see the site. Metrics `eventsCount`, `sessionsCount`, `visitorsCount` (readers are counted per UTC day: their ' +
      'hashes change daily, so a reader of two days counts twice); `datetime` buckets of a day, week or month (an hour for ranges of ' +
      'at most 7 days); one of the dimensions `eventType`, `page`, `siteSpace`, `siteSection`, `urlPath`, `referrerDomain`, ' +
      '`displayContext`, `eventSearchQuery`, `eventPageFeedbackRating`, `eventLinkTargetValue`. Filters: `eventType`, a feedback rating ' +
      '(with `page` or the rating), values of the grouped dimension (`in`/`notIn`), and `eventSearchResultsCount` = [0] (searches that ' +
      'found nothing, as our reader pages report them). Anything else is a 400 naming it. Days are UTC; counts are at most ' +
      'INSIGHTS_ROLLUP_EVERY_MS behind.',
  })
  aggregate(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Body() body: AggregateSiteEventsDto) {
    return this.insights.aggregate(user, organizationId, siteId, body);
  }

  @Get('insights/visitor-segments')
  @ApiBearerAuth()
  @ApiOperation({ operationId: 'listSiteVisitorSegments', summary: "The last 30 days' events by the claims of signed-in visitors (anonymous readers as one segment)" })
  async segments(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string) {
    const items = await this.insights.segments(user, organizationId, siteId);
    return { items, count: items.length };
  }

  @Get('insights/searches-without-results')
  @ApiBearerAuth()
  @ApiQuery(RANGE)
  @ApiOkResponse({ schema: SEARCHES_WITHOUT_RESULTS_SCHEMA })
  @ApiOperation({ operationId: 'listSiteSearchesWithoutResults', summary: 'Not in GitBook: the searches that found nothing on our reader pages, most asked first (100 at most)' })
  async noResults(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Query('range') range?: string) {
    return { items: await this.insights.searchesWithoutResults(user, organizationId, siteId, range) };
  }

  @Get('insights/unhelpful-pages')
  @ApiBearerAuth()
  @ApiQuery(RANGE)
  @ApiOkResponse({ schema: UNHELPFUL_PAGES_SCHEMA })
  @ApiOperation({ operationId: 'listSiteUnhelpfulPages', summary: 'Not in GitBook: the pages readers rated `bad`, most often first (100 at most)' })
  async unhelpful(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Query('range') range?: string) {
    return { items: await this.insights.unhelpfulPages(user, organizationId, siteId, range) };
  }

  @Post('agent-feedback')
  @ApiBearerAuth()
  @HttpCode(204)
  @ApiOperation({ operationId: 'submitSiteAgentFeedback', summary: "An AI agent's feedback on the site's content, kept as an `agent_feedback` insight event" })
  async agentFeedback(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Body() body: SiteAgentFeedbackDto) {
    await this.insights.agentFeedback(user, organizationId, siteId, body);
  }
}
