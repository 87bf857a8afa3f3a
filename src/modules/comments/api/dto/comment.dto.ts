import { ApiProperty, ApiPropertyOptional, ApiPropertyOptions } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsNotEmptyObject, IsObject, IsString, Length, ValidateNested } from 'class-validator';
import { Omittable, RefusesEmptyBody } from '@app/common';
import { COMMENT_BODY_MAX } from '../../domain/comment-body';
import { NODE_ID_MAX, TABLE_CELL_ID_MAX } from '../../domain/comment';
import { EMOJI_MAX_LENGTH } from '../../domain/emoji';
import { MAX_REACTIONS_PER_REQUEST } from '../../domain/reactions';
import { IsCommentBody, IsReactionEmoji } from './validators';

const BODY_DESCRIPTION = `GitBook \`Document\`: \`{"markdown": "..."}\` (1 to ${COMMENT_BODY_MAX} characters) or \`{"document": <rich text>}\``;

const BODY_SCHEMA: ApiPropertyOptions = {
  type: 'object',
  description: BODY_DESCRIPTION,
  additionalProperties: true,
  example: { markdown: 'Looks good **to me**' },
};

const REACTIONS_SCHEMA: ApiPropertyOptions = {
  type: [String],
  maxItems: MAX_REACTIONS_PER_REQUEST,
  description: 'Emojis, as characters ("👍") or code points ("1f44d"); each applies to the caller\'s own reactions',
};

/** GitBook's `TableCellTarget`. */
export class TableCellDto {
  @ApiProperty({ minLength: 1, maxLength: TABLE_CELL_ID_MAX })
  @IsString()
  @Length(1, TABLE_CELL_ID_MAX)
  record: string;

  @ApiProperty({ minLength: 1, maxLength: TABLE_CELL_ID_MAX })
  @IsString()
  @Length(1, TABLE_CELL_ID_MAX)
  definition: string;
}

/** Body of POST .../comments (GitBook `PostCommentSchema`). */
export class PostCommentDto {
  @ApiPropertyOptional({ maxLength: NODE_ID_MAX, description: 'The node of the page commented on; requires `page`' })
  @Omittable()
  @IsString()
  @Length(1, NODE_ID_MAX)
  node?: string;

  @ApiPropertyOptional({ maxLength: 64, description: 'A page of the current content (400 otherwise)' })
  @Omittable()
  @IsString()
  @Length(1, 64)
  page?: string;

  @ApiProperty(BODY_SCHEMA)
  @IsCommentBody()
  body: unknown;

  @ApiPropertyOptional({ type: TableCellDto, description: 'The table cell commented on; requires `page`' })
  @Omittable()
  @IsObject()
  @IsNotEmptyObject()
  @ValidateNested()
  @Type(() => TableCellDto)
  tableCell?: TableCellDto;
}

class ReactionChangesDto {
  @ApiPropertyOptional(REACTIONS_SCHEMA)
  @Omittable()
  @IsArray()
  @ArrayMaxSize(MAX_REACTIONS_PER_REQUEST)
  @IsString({ each: true })
  @Length(1, EMOJI_MAX_LENGTH, { each: true })
  @IsReactionEmoji({ each: true })
  addedReactions?: string[];

  @ApiPropertyOptional(REACTIONS_SCHEMA)
  @Omittable()
  @IsArray()
  @ArrayMaxSize(MAX_REACTIONS_PER_REQUEST)
  @IsString({ each: true })
  @Length(1, EMOJI_MAX_LENGTH, { each: true })
  @IsReactionEmoji({ each: true })
  removedReactions?: string[];
}

/** Body of PUT .../comments/{commentId}/replies/{commentReplyId} (GitBook `UpdateCommentReplySchema`). */
@RefusesEmptyBody()
export class UpdateReplyDto extends ReactionChangesDto {
  @ApiPropertyOptional({ ...BODY_SCHEMA, description: `${BODY_DESCRIPTION}; only the author may change it` })
  @Omittable()
  @IsCommentBody()
  body?: unknown;
}

/** Body of PUT .../comments/{commentId} (GitBook `UpdateCommentSchema`). */
@RefusesEmptyBody()
export class UpdateCommentDto extends UpdateReplyDto {
  @ApiPropertyOptional({ description: 'true resolves the comment, false reopens it (its author or a space editor)' })
  @Omittable()
  @IsBoolean()
  resolved?: boolean;
}

/** Body of POST .../comments/{commentId}/replies (GitBook `PostCommentReplySchema`). */
export class PostReplyDto {
  @ApiProperty(BODY_SCHEMA)
  @IsCommentBody()
  body: unknown;
}
