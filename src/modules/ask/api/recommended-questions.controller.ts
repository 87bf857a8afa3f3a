import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { openEventStream } from '../../../core/event-stream';
import { CurrentUser } from '../../identity/api/auth.decorators';
import { User } from '../../identity/domain/user';
import { RecommendedQuestionsService } from '../application/recommended-questions.service';

const HOW =
  'At most five: on a site, first the questions its readers asked at least three times in 90 days and got answers to; then questions about ' +
  'the shallowest pages the caller can read, phrased by the model when one is configured (counted as `recommended-questions`), else made ' +
  'from their titles ("Install the CLI" becomes "How do I install the CLI?"). Kept ten minutes per organization and set of pages.';

/** Questions to suggest before a reader asks. */
@ApiTags('ask')
@ApiBearerAuth()
@Controller('orgs/:organizationId')
export class RecommendedQuestionsController {
  constructor(private readonly recommended: RecommendedQuestionsService) {}

  @Get('ask/questions')
  @ApiOperation({ operationId: 'getRecommendedQuestionsInOrganization', summary: "Questions to suggest, from the organization's content", description: HOW })
  @ApiResponse({ status: 200, schema: { type: 'object', required: ['questions'], properties: { questions: { type: 'array', items: { type: 'string' } } } } })
  async getRecommendedQuestionsInOrganization(@CurrentUser() user: User, @Param('organizationId') organizationId: string) {
    return { questions: await this.recommended.inOrganization(user, organizationId) };
  }

  @Get('ask/questions/stream')
  @ApiOperation({ operationId: 'streamRecommendedQuestionsInOrganization', summary: 'The same as server-sent events: `data: {"question": ...}` each, then `event: done`', description: HOW })
  @ApiResponse({ status: 200, content: { 'text/event-stream': { schema: { type: 'object', required: ['question'], properties: { question: { type: 'string' } } } } } })
  async streamRecommendedQuestionsInOrganization(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Res() res: Response) {
    streamQuestions(res, await this.recommended.inOrganization(user, organizationId));
  }

  @Get('sites/:siteId/ask/questions')
  @ApiOperation({
    operationId: 'streamRecommendedQuestionsInSite',
    summary: "Questions to suggest on a site, as server-sent events (its current site space's, or its default ones')",
    description: `${HOW} The site's agent settings apply (its assistant off: 403; its site spaces).`,
  })
  @ApiQuery({ name: 'siteSpaceId', required: false })
  @ApiQuery({ name: 'spaceId', required: false, description: 'Accepted; the site space decides' })
  @ApiResponse({ status: 200, content: { 'text/event-stream': { schema: { type: 'object', required: ['question'], properties: { question: { type: 'string' } } } } } })
  async streamRecommendedQuestionsInSite(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Query('siteSpaceId') siteSpaceId: unknown, @Res() res: Response) {
    const questions = await this.recommended.inSite(user, organizationId, siteId, typeof siteSpaceId === 'string' && siteSpaceId ? siteSpaceId : undefined);
    streamQuestions(res, questions);
  }
}

function streamQuestions(res: Response, questions: string[]): void {
  openEventStream(res);
  for (const question of questions) res.write(`data: ${JSON.stringify({ question })}\n\n`);
  res.end('event: done\ndata: {}\n\n');
}
