import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsIn, IsObject, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { ListQueryDto, Omittable } from '@app/common';
import { CHANGE_REQUEST_SUBJECT_MAX } from '../../domain/change-request';
import { REVIEW_STATUSES, ReviewStatus } from '../../domain/review';

export const MAX_REVIEWERS_PER_REQUEST = 100;

export class ListReviewsQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ enum: ['document', 'markdown'], description: 'Format of review comments (reviews carry none here)' })
  @IsOptional()
  @IsIn(['document', 'markdown'])
  format?: 'document' | 'markdown';

  @ApiPropertyOptional({ type: Boolean, description: 'true: only reviews of an older head; false: only reviews of the current head' })
  @IsOptional()
  @Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value))
  @IsBoolean()
  outdated?: boolean;
}

export class GetReviewQueryDto {
  @ApiPropertyOptional({ enum: ['document', 'markdown'] })
  @IsOptional()
  @IsIn(['document', 'markdown'])
  format?: 'document' | 'markdown';
}

export class SubmitReviewDto {
  @ApiProperty({ enum: REVIEW_STATUSES })
  @IsIn(REVIEW_STATUSES)
  status: ReviewStatus;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'Not supported: a 400 (post a change request comment instead)' })
  @Omittable()
  @IsObject()
  comment?: Record<string, unknown>;
}

export class RequestReviewersDto {
  @ApiProperty({ type: [String], description: `Ids of the users to ask (1 to ${MAX_REVIEWERS_PER_REQUEST})` })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_REVIEWERS_PER_REQUEST)
  @IsString({ each: true })
  @MinLength(1, { each: true })
  @MaxLength(64, { each: true })
  users: string[];

  @ApiPropertyOptional({ maxLength: CHANGE_REQUEST_SUBJECT_MAX, description: 'Also sets the subject' })
  @Omittable()
  @IsString()
  @MaxLength(CHANGE_REQUEST_SUBJECT_MAX)
  subject?: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'Also sets the description (rich text)' })
  @Omittable()
  @IsObject()
  description?: Record<string, unknown>;
}
