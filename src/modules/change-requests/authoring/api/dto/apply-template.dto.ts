import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsObject, IsString, MaxLength, MinLength } from 'class-validator';
import { Omittable } from '@app/common';
import { SPACE_TEMPLATES } from '../../domain/templates';

/** The body of POST /spaces/{spaceId}/content/template. */
export class ApplyTemplateDto {
  @ApiProperty({ description: `Built-in template: ${SPACE_TEMPLATES.map((t) => `\`${t.id}\` (${t.description})`).join(', ')}` })
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  id: string;

  @ApiPropertyOptional({
    type: 'object',
    properties: { contentRefs: { type: 'object', additionalProperties: { type: 'object' } } },
    description: '`contentRefs`: named content references the template takes (`api-reference`: `spec`, a `url` reference)',
  })
  @Omittable()
  @IsObject()
  params?: Record<string, unknown>;

  @ApiPropertyOptional({ description: 'Apply into this change request (id or number) instead of the space content' })
  @Omittable()
  @IsString()
  @MinLength(1)
  @MaxLength(128)
  changeRequestId?: string;
}
