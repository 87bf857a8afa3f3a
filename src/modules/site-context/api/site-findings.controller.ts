import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ListQueryDto, toEnvelope } from '@app/common';
import { SiteQuestionPresenter } from '../../ask';
import { ChangeRequestPresenter } from '../../change-requests/api/change-request.presenter';
import { CurrentUser } from '../../identity/api/auth.decorators';
import { User } from '../../identity/domain/user';
import { SiteFindingsService } from '../application/site-findings.service';
import { SiteScansService } from '../application/site-scans.service';
import { SiteTopicsService } from '../application/site-topics.service';
import { FindingStatsDto, ListFindingsDto, ListScansDto, TopicsRangeDto, UpdateFindingDto, UpdateTopicDto } from './dto/site-context.dto';
import { SiteContextPresenter } from './site-context.presenter';
import { SITE_SCAN_SCHEMA } from './site-context.schemas';

const READERS = 'Members who can see the site.';
const EDITORS = "The site's `edit` role.";

/** What a site's scans found: scans, topics, findings. */
@ApiTags('site-context')
@ApiBearerAuth()
@Controller('orgs/:organizationId/sites/:siteId')
export class SiteFindingsController {
  constructor(
    private readonly scans: SiteScansService,
    private readonly topics: SiteTopicsService,
    private readonly findings: SiteFindingsService,
    private readonly presenter: SiteContextPresenter,
    private readonly questionPresenter: SiteQuestionPresenter,
    private readonly changeRequestPresenter: ChangeRequestPresenter,
  ) {}

  @Get('scans')
  @ApiOperation({ operationId: 'listSiteScans', summary: 'Scans, newest first', description: READERS })
  async listScans(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Query() query: ListScansDto) {
    return toEnvelope(await this.scans.list(user, organizationId, siteId, { topic: query.topic, status: query.status }, query.toPageRequest()), (s) => this.presenter.scan(organizationId, s));
  }

  @Post('scans')
  @HttpCode(202)
  @ApiOperation({ operationId: 'startSiteScan', summary: 'Scan now (our addition): the worker groups the evidence of the last 90 days into topics and findings', description: EDITORS })
  @ApiResponse({ status: 202, description: 'The scan, pending', schema: SITE_SCAN_SCHEMA })
  async startScan(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string) {
    return this.presenter.scan(organizationId, await this.scans.startNow(user, organizationId, siteId));
  }

  @Get('scans/:siteScanId')
  @ApiOperation({ operationId: 'getSiteScanById', description: READERS })
  async getScan(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Param('siteScanId') id: string) {
    return this.presenter.scan(organizationId, await this.scans.get(user, organizationId, siteId, id));
  }

  @Get('topics')
  @ApiOperation({ operationId: 'listSiteTopics', summary: 'Topics, most recently updated first', description: READERS })
  async listTopics(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Query() query: TopicsRangeDto) {
    const topics = await this.topics.list(user, organizationId, siteId, query.from ? new Date(query.from) : undefined, query.to ? new Date(query.to) : undefined);
    return { items: topics.map((t) => this.presenter.topic(organizationId, t)) };
  }

  @Get('topics/:siteTopicId')
  @ApiOperation({ operationId: 'getSiteTopicById', description: READERS })
  async getTopic(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Param('siteTopicId') id: string) {
    return this.presenter.topic(organizationId, await this.topics.get(user, organizationId, siteId, id));
  }

  @Patch('topics/:siteTopicId')
  @ApiOperation({ operationId: 'updateSiteTopicById', description: EDITORS })
  async updateTopic(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Param('siteTopicId') id: string, @Body() body: UpdateTopicDto) {
    return this.presenter.topic(organizationId, await this.topics.update(user, organizationId, siteId, id, body.usageSettings));
  }

  @Delete('topics/:siteTopicId/findings')
  @ApiOperation({ operationId: 'deleteSiteTopicFindings', summary: "Delete the topic's findings", description: EDITORS })
  @ApiResponse({ status: 205, description: 'Deleted' })
  @ApiResponse({ status: 204, description: 'The topic had none' })
  async deleteTopicFindings(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Param('siteTopicId') id: string, @Res({ passthrough: true }) res: Response) {
    res.status((await this.topics.deleteFindings(user, organizationId, siteId, id)) ? 205 : 204);
  }

  @Get('findings')
  @ApiOperation({ operationId: 'listSiteFindings', summary: 'Findings (candidates only when asked by status)', description: READERS })
  async listFindings(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Query() query: ListFindingsDto) {
    const page = await this.findings.list(user, organizationId, siteId, query.findingFilters(), query.orderBy ?? 'updatedAt', query.pageRequest());
    return toEnvelope(page, (f) => this.presenter.finding(organizationId, f));
  }

  @Get('stats/findings')
  @ApiOperation({ operationId: 'getSiteFindingStats', description: READERS })
  async findingStats(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Query() query: FindingStatsDto) {
    return this.findings.stats(user, organizationId, siteId, query.filters());
  }

  @Get('findings/:siteFindingId')
  @ApiOperation({ operationId: 'getSiteFindingById', description: READERS })
  async getFinding(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Param('siteFindingId') id: string) {
    return this.presenter.finding(organizationId, await this.findings.get(user, organizationId, siteId, id));
  }

  @Patch('findings/:siteFindingId')
  @ApiOperation({ operationId: 'updateSiteFindingById', summary: "Change a finding's status (a done or canceled finding stays so: scans make a new one if the evidence returns)", description: EDITORS })
  async updateFinding(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Param('siteFindingId') id: string, @Body() body: UpdateFindingDto) {
    return this.presenter.finding(organizationId, await this.findings.setStatus(user, organizationId, siteId, id, body.status));
  }

  @Get('findings/:siteFindingId/pages')
  @ApiOperation({ operationId: 'listPagesForSiteFinding', description: READERS })
  async findingPages(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Param('siteFindingId') id: string, @Query() query: ListQueryDto) {
    return toEnvelope(await this.findings.pages(user, organizationId, siteId, id, query.toPageRequest()), (p) => ({ object: 'site-finding-page' as const, ...p }));
  }

  @Get('findings/:siteFindingId/questions')
  @ApiOperation({ operationId: 'listQuestionsForSiteFinding', description: READERS })
  async findingQuestions(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Param('siteFindingId') id: string, @Query() query: ListQueryDto) {
    return toEnvelope(await this.findings.questionsOf(user, organizationId, siteId, id, query.toPageRequest()), (q) => this.questionPresenter.question(organizationId, q));
  }

  @Get('findings/:siteFindingId/records')
  @ApiOperation({ operationId: 'listRecordsForSiteFinding', description: READERS })
  async findingRecords(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Param('siteFindingId') id: string, @Query() query: ListQueryDto) {
    return toEnvelope(await this.findings.recordsOf(user, organizationId, siteId, id, query.toPageRequest()), (r) => this.presenter.record(organizationId, r));
  }

  @Get('findings/:siteFindingId/change-requests')
  @ApiOperation({ operationId: 'listChangeRequestsForSiteFinding', summary: 'The change requests drafted for it that the caller can read', description: READERS })
  async findingChangeRequests(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Param('siteFindingId') id: string, @Query() query: ListQueryDto) {
    return toEnvelope(await this.findings.changeRequestsOf(user, organizationId, siteId, id, query.toPageRequest()), (view) => this.changeRequestPresenter.present(view));
  }

  @Post('findings/:siteFindingId/change-requests')
  @HttpCode(202)
  @ApiOperation({
    operationId: 'triggerChangeRequestsForSiteFinding',
    summary: 'Draft a change request addressing the finding',
    description:
      `${EDITORS} The worker drafts it as the caller (their rights checked again then), in the space of the finding's first page (else the site's first space; \`edit\` there): ` +
      'a new page holding a hint that lists the evidence and the pages involved, and, with a model (counted as `findings`; at most 20 s), a draft of the missing content above it. ' +
      '409 for a done or canceled finding; listChangeRequestsForSiteFinding shows the draft once made.',
  })
  @ApiResponse({ status: 202, description: 'Queued for the worker' })
  async triggerChangeRequests(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Param('siteFindingId') id: string) {
    await this.findings.requestDraft(user, organizationId, siteId, id);
  }
}
