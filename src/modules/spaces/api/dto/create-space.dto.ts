import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsObject, IsString, MaxLength, MinLength, ValidateNested } from 'class-validator';
import { Omittable } from '@app/common';
import { EMOJI_MAX, SPACE_EDIT_MODES, SPACE_TITLE_MAX, SpaceEditMode, TRANSLATION_LANGUAGES, TranslationLanguage } from '../../domain/space-settings';

/** GitBook's `ApplySpaceTemplate` inside `CreateSpace`. */
export class CreateSpaceTemplateDto {
  @ApiProperty({
    description:
      'A built-in template (`blank-page`, `getting-started`, `api-reference`, `faq`) gives its pages; any other id ' +
      "(GitBook's own catalogue) gives a blank space with one empty page",
  })
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  id: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: '`contentRefs` of a built-in template (checked against it); ignored for other ids' })
  @Omittable()
  @IsObject()
  params?: Record<string, unknown>;
}

/**
 * GitBook's `CreateSpace`. Spaces start with one empty page unless `empty`, or with a template's pages
 * (`template`, not together with `empty`); creating from a `computedSource` is not supported, so that
 * property is rejected like any unknown one.
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

  @ApiPropertyOptional({ type: CreateSpaceTemplateDto, description: 'Start with the pages of a template (see `id`); not with `empty`' })
  @Omittable()
  @ValidateNested()
  @Type(() => CreateSpaceTemplateDto)
  template?: CreateSpaceTemplateDto;
}
