import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { Omittable } from '@app/common';
import { DefaultLevel } from '../../../access/domain/roles';
import {
  DEFAULT_LEVELS,
  EMOJI_MAX,
  SPACE_EDIT_MODES,
  SPACE_TITLE_MAX,
  SpaceEditMode,
  TRANSLATION_LANGUAGES,
  TranslationLanguage,
} from '../../domain/space-settings';
import { SpaceMergeRules } from '../../../organizations/domain/merge-rules';
import { IsSpaceMergeRules } from './validators';

/**
 * The body of PATCH /spaces/{spaceId}. `emoji: null` removes the emoji. Custom icons are not
 * supported: `icon` may only be null (remove), any URL is a 400.
 */
export class UpdateSpaceDto {
  @ApiPropertyOptional({ enum: SPACE_EDIT_MODES, description: 'Space admins only' })
  @Omittable()
  @IsIn(SPACE_EDIT_MODES)
  editMode?: SpaceEditMode;

  @ApiPropertyOptional({ maxLength: SPACE_TITLE_MAX })
  @Omittable()
  @IsString()
  @MinLength(1)
  @MaxLength(SPACE_TITLE_MAX)
  title?: string;

  @ApiPropertyOptional({ enum: DEFAULT_LEVELS.filter((l) => l !== null), nullable: true, description: 'Space admins only; null gives members no default access' })
  @IsOptional()
  @IsIn(DEFAULT_LEVELS)
  defaultLevel?: DefaultLevel;

  @ApiPropertyOptional({ enum: TRANSLATION_LANGUAGES })
  @Omittable()
  @IsIn(TRANSLATION_LANGUAGES)
  language?: TranslationLanguage;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: '{type: inherit} | {type: none} | {type: rules, rules: [...]}; space admins only' })
  @Omittable()
  @IsSpaceMergeRules()
  mergeRules?: SpaceMergeRules;

  @ApiPropertyOptional({ maxLength: EMOJI_MAX, nullable: true, description: 'null removes the emoji' })
  @IsOptional()
  @IsString()
  @MaxLength(EMOJI_MAX)
  emoji?: string | null;

  @ApiPropertyOptional({ nullable: true, enum: [null], description: 'Only null (remove the icon) is accepted' })
  @IsOptional()
  @IsIn([null], { message: 'custom icons are not supported; only null is accepted' })
  icon?: null;
}
