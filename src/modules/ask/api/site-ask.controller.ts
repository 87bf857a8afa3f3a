import { Body, Controller, Headers, Param, Post, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiProperty, ApiPropertyOptional, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Allow, IsDefined, IsString } from 'class-validator';
import type { Response } from 'express';
import { CurrentUser } from '../../identity/api/auth.decorators';
import { User } from '../../identity/domain/user';
import { searchScopeOf } from '../../sites/domain/search-scope';
import { AskService } from '../application/ask.service';
import { SiteAskService } from '../application/site-ask.service';
import { SiteQuestionsService } from '../application/site-questions.service';
import { languageOf } from '../domain/site-question';
import { STREAM_RESPONSE, streamAnswer } from './answer-stream';
import { HOW, formatOf } from './ask.controller';

export class SiteAskDto {
  @ApiProperty({ type: String, minLength: 1, maxLength: 512 }) @IsDefined() @IsString() question: unknown;
  @ApiProperty({
    type: 'object',
    required: ['mode'],
    properties: { mode: { type: 'string', enum: ['default', 'specific', 'all'] }, currentSiteSpace: { type: 'string' }, siteSpaceIds: { type: 'array', items: { type: 'string' } } },
    description: "The site spaces to search (GitBook's SiteSearchScope): each section's default (or the current site space's section and language), the ones listed, or all",
  })
  @IsDefined()
  scope: unknown;
  @ApiPropertyOptional({ type: Object, description: 'The reader\'s context (`siteSpaceId`, `goal`): accepted, not used yet' }) @Allow() context?: unknown;
  @ApiPropertyOptional({ type: Object, description: "The reader's insights session (`visitorId`, `sessionId`), recorded with the answer" }) @Allow() session?: unknown;
}

/** Ask on a site: a question answered from the site's content in a scope, as a stream. */
@ApiTags('ask')
@ApiBearerAuth()
@Controller('orgs/:organizationId/sites/:siteId/ask')
export class SiteAskController {
  constructor(
    private readonly ask: AskService,
    private readonly questions: SiteQuestionsService,
    private readonly siteAsk: SiteAskService,
  ) {}

  @Post()
  @ApiOperation({
    operationId: 'streamAskInSite',
    summary: "Answers a question from the site's spaces in the scope, as server-sent events",
    description: `${HOW} The passages come from the site's spaces in \`scope\` that the caller can read (the site search's rules). Events as streamAskInOrganization's. The site's agent settings apply (\`assistant\`: off answers 403; its site spaces, tone and instructions). The question and its answer are recorded for the site (listSiteQuestions), in the \`api\` channel, its language from \`Accept-Language\`.`,
  })
  @ApiQuery({ name: 'format', required: false, enum: ['document', 'markdown'] })
  @ApiResponse(STREAM_RESPONSE)
  async streamAskInSite(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Body() body: SiteAskDto, @Query('format') format: string | undefined, @Headers('accept-language') acceptLanguage: string | undefined, @Res() res: Response) {
    const shape = formatOf(format);
    const scope = searchScopeOf({ scope: body.scope });
    const { passages, guidance, tools } = await this.siteAsk.prepare(user, organizationId, siteId, body.question, scope);
    const session = typeof body.session === 'object' && body.session !== null ? (body.session as Record<string, unknown>) : null;
    await streamAnswer(res, this.ask, {
      organizationId,
      question: body.question as string,
      passages,
      format: shape,
      guidance,
      tools,
      onAnswered: ({ markdown, byModel }) =>
        this.questions.record({ organizationId, siteId, question: body.question as string, passages, markdown, byModel, channel: { type: 'api' }, session, language: languageOf(acceptLanguage) }),
    }).finally(() => tools?.close());
  }
}
