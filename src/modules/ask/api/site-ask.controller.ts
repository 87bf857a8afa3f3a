import { Body, Controller, Param, Post, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiProperty, ApiPropertyOptional, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Allow, IsDefined, IsString } from 'class-validator';
import type { Response } from 'express';
import { CurrentUser } from '../../identity/api/auth.decorators';
import { User } from '../../identity/domain/user';
import { searchScopeOf } from '../../sites/domain/search-scope';
import { AskService } from '../application/ask.service';
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
  @ApiPropertyOptional({ type: Object, description: 'The reader\'s insights session: accepted, not recorded yet' }) @Allow() session?: unknown;
}

/** Ask on a site: a question answered from the site's content in a scope, as a stream. */
@ApiTags('ask')
@ApiBearerAuth()
@Controller('orgs/:organizationId/sites/:siteId/ask')
export class SiteAskController {
  constructor(private readonly ask: AskService) {}

  @Post()
  @ApiOperation({
    operationId: 'streamAskInSite',
    summary: "Answers a question from the site's spaces in the scope, as server-sent events",
    description: `${HOW} The passages come from the site's spaces in \`scope\` that the caller can read (the site search's rules). Events as streamAskInOrganization's.`,
  })
  @ApiQuery({ name: 'format', required: false, enum: ['document', 'markdown'] })
  @ApiResponse(STREAM_RESPONSE)
  async streamAskInSite(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Body() body: SiteAskDto, @Query('format') format: string | undefined, @Res() res: Response) {
    const shape = formatOf(format);
    const scope = searchScopeOf({ scope: body.scope });
    const passages = await this.ask.retrieveInSite(user, organizationId, siteId, body.question, scope);
    await streamAnswer(res, this.ask, body.question as string, passages, shape);
  }
}
