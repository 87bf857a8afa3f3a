import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow, IsIn } from 'class-validator';
import { ListQueryDto, Omittable } from '@app/common';
import { TRANSLATION_LANGUAGES } from '../../../spaces/domain/space-settings';
import { MAX_GLOSSARY_OPERATIONS } from '../../domain/glossary';

export class ListGlossaryQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ enum: TRANSLATION_LANGUAGES, description: 'Sort by the term in this language (entries without one first); oldest first otherwise' })
  @Omittable()
  @IsIn(TRANSLATION_LANGUAGES)
  orderBy?: string;
}

/** The operations are checked by parseGlossaryOperations (GitBook's oneOf of insert, update and delete). */
export class UpdateGlossaryDto {
  @ApiProperty({
    type: 'array',
    maxItems: MAX_GLOSSARY_OPERATIONS,
    items: { type: 'object', additionalProperties: true },
    description:
      '`{"type":"insert","translations":{"en":"Space","fr":"Espace"}}`, `{"type":"update","id":…,"translations":{…}}` ' +
      '(replaces the entry\'s translations), `{"type":"delete","id":…}`; all applied in one transaction, or none. ' +
      'Terms are 1 to 255 characters on one line, keyed by supported language codes; one operation per entry per batch.',
  })
  @Allow()
  operations: unknown;
}
