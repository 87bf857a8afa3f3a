import { Body, Controller, Headers, Param, Post, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { InvalidError } from '@app/common';
import { CurrentUser } from '../../identity/api/auth.decorators';
import { User } from '../../identity/domain/user';
import { AskService } from '../application/ask.service';
import { SiteAskService } from '../application/site-ask.service';
import { SiteQuestionsService } from '../application/site-questions.service';
import { questionOf } from '../domain/ai-response';
import { CORE_CHANNELS, languageOf } from '../domain/site-question';
import { streamAiResponse } from './ai-response-stream';
import { STREAM_RESPONSE } from './answer-stream';
import { HOW } from './ask.controller';
import { AiResponseDto } from './dto/ai-response.dto';

/** A site's assistant in conversation: GitBook's AI response stream. */
@ApiTags('ask')
@ApiBearerAuth()
@Controller('orgs/:organizationId/sites/:siteId/ai')
export class SiteAiResponseController {
  constructor(
    private readonly ask: AskService,
    private readonly siteAsk: SiteAskService,
    private readonly questions: SiteQuestionsService,
  ) {}

  @Post('response')
  @ApiOperation({
    operationId: 'streamAIResponseInSite',
    summary: "Answers the conversation's last question from the site's spaces, as AI response events",
    description:
      `${HOW} Over all the site's spaces its assistant may draw on (its agent settings apply), a follow-up searched with the question it follows. ` +
      'Events: `response_start`, `response_step_start`, a `response_tool_call` (the `search` and the pages it found), one `response_document` per block ' +
      'of the answer, `response_finish` with the `responseId` to continue from, then `event: done`. Recorded for the site (listSiteQuestions) in the thread of the response it follows.',
  })
  @ApiResponse(STREAM_RESPONSE)
  async streamAIResponseInSite(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Body() body: AiResponseDto, @Headers('accept-language') acceptLanguage: string | undefined, @Res() res: Response) {
    const question = questionOf(body.input);
    const previousResponseId = body.previousResponseId === undefined ? undefined : responseIdOf(body.previousResponseId);
    const channel = channelOf(body.channel);
    const { passages, guidance, tools } = await this.siteAsk.prepareFollowUp(user, organizationId, siteId, question, previousResponseId);
    const session = typeof body.session === 'object' && body.session !== null ? (body.session as Record<string, unknown>) : null;
    await streamAiResponse(res, this.ask, {
      organizationId,
      question,
      passages,
      guidance,
      previousResponseId,
      tools,
      record: ({ markdown, byModel }, messageId) =>
        this.questions.record({ organizationId, siteId, question, passages, markdown, byModel, channel: { type: channel }, session, language: languageOf(acceptLanguage), previousResponseId, messageId }),
    }).finally(() => tools?.close());
  }
}

function responseIdOf(value: unknown): string {
  if (typeof value !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(value)) throw new InvalidError('previousResponseId: a response id');
  return value;
}

function channelOf(value: unknown): (typeof CORE_CHANNELS)[number] {
  if (value === undefined) return 'api';
  const type = typeof value === 'object' && value !== null ? (value as { type?: unknown }).type : undefined;
  if (typeof type !== 'string' || !(CORE_CHANNELS as readonly string[]).includes(type)) throw new InvalidError(`channel.type: one of ${CORE_CHANNELS.join(', ')}`);
  return type as (typeof CORE_CHANNELS)[number];
}
