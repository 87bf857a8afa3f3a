import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiProperty, ApiPropertyOptional, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Allow, IsDefined, IsString } from 'class-validator';
import type { Response } from 'express';
import { InvalidError } from '@app/common';
import { CurrentUser } from '../../identity/api/auth.decorators';
import { User } from '../../identity/domain/user';
import { AnswerFormat, AskService } from '../application/ask.service';
import { STREAM_RESPONSE, streamAnswer } from './answer-stream';

export class AskQueryDto {
  @ApiProperty({ type: String, minLength: 1, maxLength: 500, description: 'The question' }) @IsDefined() @IsString() query: unknown;
  @ApiPropertyOptional({ type: [String], deprecated: true, description: 'Ignored' }) @Allow() previousQueries?: unknown;
}

export const HOW =
  'Retrieval first: the question runs against the organization search (what the caller can read), the best passages go to the model ' +
  '(AI_API_URL, AI_MODEL) and its answer cites them (`sources`). Without a model, or when it fails or takes over 20 s, the answer is ' +
  'extractive: the passages themselves, never an error.';

export function formatOf(value: unknown): AnswerFormat {
  if (value === undefined || value === 'document') return 'document';
  if (value === 'markdown') return 'markdown';
  throw new InvalidError('format: "document" or "markdown"');
}

/** Ask in an organization: questions answered from its documentation. */
@ApiTags('ask')
@ApiBearerAuth()
@Controller('orgs/:organizationId/ask')
export class AskController {
  constructor(private readonly ask: AskService) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({ operationId: 'askInOrganization', summary: "Answers a question from the organization's content", description: HOW })
  @ApiQuery({ name: 'format', required: false, enum: ['document', 'markdown'] })
  async askInOrganization(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Body() body: AskQueryDto, @Query('format') format?: string) {
    const shape = formatOf(format);
    const passages = await this.ask.retrieve(user, organizationId, body.query);
    await this.ask.assertBudget(organizationId);
    return { answer: (await this.ask.answer(organizationId, body.query as string, passages, shape)).answer };
  }

  @Get('stream')
  @ApiOperation({
    operationId: 'streamAskInOrganization',
    summary: 'The same answer as a stream of server-sent events',
    description: `${HOW} Each \`data:\` event is \`{type: "answer", answer}\`, the last one the answer to keep: with a model, the extractive answer comes first, at once, then the model's; an \`event: done\` ends the stream.`,
  })
  @ApiQuery({ name: 'query', required: true })
  @ApiQuery({ name: 'format', required: false, enum: ['document', 'markdown'] })
  @ApiResponse(STREAM_RESPONSE)
  async streamAskInOrganization(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Query('query') query: unknown, @Query('format') format: string | undefined, @Res() res: Response) {
    const shape = formatOf(format);
    const passages = await this.ask.retrieve(user, organizationId, query);
    await streamAnswer(res, this.ask, { organizationId, question: query as string, passages, format: shape });
  }
}
