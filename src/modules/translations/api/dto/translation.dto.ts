import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsObject, IsOptional, IsString, Length, ValidateNested } from 'class-validator';
import { TRANSLATION_LANGUAGES, TranslationLanguage } from '../../../spaces/domain/space-settings';

export class TranslationSourceDto {
  @ApiProperty({ description: 'ID of the source space (in this organization, readable by the caller)' })
  @IsString()
  @Length(1, 64)
  space: string;

  @ApiProperty({ enum: TRANSLATION_LANGUAGES, description: 'Language of the source space' })
  @IsIn(TRANSLATION_LANGUAGES)
  language: TranslationLanguage;
}

/** Body of POST /orgs/{organizationId}/translations. */
export class CreateTranslationDto {
  @ApiProperty({ enum: TRANSLATION_LANGUAGES, description: 'Language to translate into' })
  @IsIn(TRANSLATION_LANGUAGES)
  language: TranslationLanguage;

  @ApiProperty({ type: TranslationSourceDto })
  @ValidateNested()
  @Type(() => TranslationSourceDto)
  source: TranslationSourceDto;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'Rich text (a GitBook JSONDocument) given to the model with every page' })
  @IsOptional()
  @IsObject()
  instructions?: Record<string, unknown>;
}

/** Body of PUT /orgs/{organizationId}/translations/{translationId}. */
export class UpdateTranslationDto {
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'Rich text (a GitBook JSONDocument)' })
  @IsObject()
  instructions: Record<string, unknown>;
}
