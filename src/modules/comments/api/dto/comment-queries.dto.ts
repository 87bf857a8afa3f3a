import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsOptional, IsString, Length } from 'class-validator';
import { ListQueryDto } from '@app/common';
import { COMMENT_FORMATS, CommentFormat } from '../../domain/comment-body';

export const MAX_AUTHORS_FILTER = 100;

/** `format` of the comment and reply reads. */
export class CommentFormatQueryDto {
  @ApiPropertyOptional({ enum: COMMENT_FORMATS, default: 'markdown', description: 'How `body` is answered: `{markdown}` or `{document}`' })
  @IsOptional()
  @IsIn(COMMENT_FORMATS)
  format?: CommentFormat;
}

/** Query of GET .../comments/{commentId}/replies. */
export class ListRepliesQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ enum: COMMENT_FORMATS, default: 'markdown', description: 'How `body` is answered: `{markdown}` or `{document}`' })
  @IsOptional()
  @IsIn(COMMENT_FORMATS)
  format?: CommentFormat;
}

/** Query of GET .../comments. */
export class ListCommentsQueryDto extends ListRepliesQueryDto {
  @ApiPropertyOptional({ enum: ['asc', 'desc'], default: 'desc', description: 'By posting time' })
  @IsOptional()
  @IsIn(['asc', 'desc'])
  order?: 'asc' | 'desc';

  @ApiPropertyOptional({ enum: ['all', 'open', 'resolved'], default: 'all' })
  @IsOptional()
  @IsIn(['all', 'open', 'resolved'])
  status?: 'all' | 'open' | 'resolved';

  @ApiPropertyOptional({ description: 'Only comments on this page', maxLength: 64 })
  @IsOptional()
  @IsString()
  @Length(1, 64)
  targetPage?: string;

  @ApiPropertyOptional({
    type: [String],
    maxItems: MAX_AUTHORS_FILTER,
    description: 'Only comments posted by these users (`authors=a&authors=b`)',
  })
  @IsOptional()
  @Transform(({ value }) => (typeof value === 'string' ? [value] : value))
  @IsArray()
  @ArrayMaxSize(MAX_AUTHORS_FILTER)
  @IsString({ each: true })
  @Length(1, 64, { each: true })
  authors?: string[];
}
