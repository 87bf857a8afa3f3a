import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsDefined, IsInt, IsObject, IsOptional, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import { MAX_EVENTS_PER_CALL } from '../../domain/site-event';

export class TrackSiteEventsDto {
  @ApiProperty({
    description:
      `Up to ${MAX_EVENTS_PER_CALL} of GitBook's \`SiteInsightsEvent\`s, each with \`type\`, \`session\` and \`location\` (its \`url\`); ` +
      'timestamps within 5 minutes of the server\'s clock',
    type: 'array',
    items: { type: 'object' },
  })
  @IsArray()
  @ArrayMaxSize(MAX_EVENTS_PER_CALL)
  @IsObject({ each: true })
  events: object[];
}

const COLUMN = { type: 'object' as const, properties: { column: { type: 'string' as const } }, required: ['column'] };

export class AggregateSiteEventsDto {
  @ApiProperty({ description: 'A preset (`last24Hours`, `last7Days`, `last30Days`, `last3Months`, `lastYear`) or `{from, to}`', oneOf: [{ type: 'string' }, { type: 'object' }] })
  @IsDefined()
  range: string | { from: string; to: string };

  @ApiPropertyOptional({ description: 'Metrics (`eventsCount`, `sessionsCount`, `visitorsCount`) and at most one dimension besides `datetime`', type: 'array', items: COLUMN })
  @IsOptional()
  @IsArray()
  @IsObject({ each: true })
  select?: object[];

  @ApiPropertyOptional({ type: 'array', items: COLUMN })
  @IsOptional()
  @IsArray()
  @IsObject({ each: true })
  groupBy?: object[];

  @ApiPropertyOptional({ description: 'Filters on `eventType`, a feedback rating, the grouped dimension, or `eventSearchResultsCount` = [0]', type: 'array', items: { type: 'object' } })
  @IsOptional()
  @IsArray()
  @IsObject({ each: true })
  where?: object[];

  @ApiPropertyOptional({ type: 'object', properties: { by: COLUMN, direction: { type: 'string', enum: ['asc', 'desc'] } } })
  @IsOptional()
  @IsObject()
  order?: object;

  @ApiPropertyOptional({ minimum: 1, maximum: 1000, default: 1000 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1000)
  limit?: number;
}

export class SiteAgentFeedbackDto {
  @ApiProperty({ minLength: 1, maxLength: 2048 })
  @IsString()
  @MinLength(1)
  @MaxLength(2048)
  feedback: string;

  @ApiPropertyOptional({ maxLength: 1024, description: 'The end goal the agent works towards' })
  @IsOptional()
  @IsString()
  @MaxLength(1024)
  goal?: string;

  @ApiProperty({ description: 'URL of the content the feedback is about' })
  @IsString()
  @MaxLength(2048)
  url: string;

  @ApiProperty({ description: 'The space the feedback is about' })
  @IsString()
  @MaxLength(64)
  spaceId: string;

  @ApiProperty({ description: 'The page the feedback is about' })
  @IsString()
  @MaxLength(64)
  pageId: string;

  @ApiPropertyOptional({ description: 'Where the feedback was submitted from' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  source?: string;
}
