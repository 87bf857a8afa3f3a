import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsString, MaxLength, MinLength } from 'class-validator';
import { Omittable } from '@app/common';
import { EMOJI_MAX, SPACE_EDIT_MODES, SPACE_TITLE_MAX, SpaceEditMode, TRANSLATION_LANGUAGES, TranslationLanguage } from '../../domain/space-settings';

/**
 * GitBook's `CreateSpace`. Spaces start with one empty page unless `empty`; creating from a `template` or a
 * `computedSource` is not supported, so those properties are rejected like any unknown one.
 */
export class CreateSpaceDto {
  @ApiPropertyOptional({ maxLength: SPACE_TITLE_MAX, default: 'Untitled' })
  @Omittable()
  @IsString()
  @MinLength(1)
  @MaxLength(SPACE_TITLE_MAX)
  title?: string;

  @ApiPropertyOptional({ maxLength: EMOJI_MAX, description: 'An emoji, e.g. the code point "1f4d8"' })
  @Omittable()
  @IsString()
  @MaxLength(EMOJI_MAX)
  emoji?: string;

  @ApiPropertyOptional({ description: 'Id of the parent collection; the organization root when absent' })
  @Omittable()
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  parent?: string;

  @ApiPropertyOptional({ enum: TRANSLATION_LANGUAGES })
  @Omittable()
  @IsIn(TRANSLATION_LANGUAGES)
  language?: TranslationLanguage;

  @ApiPropertyOptional({ enum: SPACE_EDIT_MODES, default: 'live' })
  @Omittable()
  @IsIn(SPACE_EDIT_MODES)
  editMode?: SpaceEditMode;

  @ApiPropertyOptional({ enum: [true], description: 'Create the space with no page; otherwise it starts with one empty page' })
  @Omittable()
  @IsIn([true])
  empty?: true;
}
