import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsObject, IsOptional, IsString, MaxLength } from 'class-validator';

const SOURCE =
  'The computed content source, as computed pages carry it: `{"type": "builtin:openapi", "dependencies": {"spec": {"ref": ' +
  '{"kind": "openapi", "spec": "<slug>"}}}, "props": {...}}`. `builtin:translation` and `integration:*` sources answer 400: ' +
  'this server has no integrations, and a translation writes its result space, which the content API reads.';

class ComputeContentDto {
  @ApiProperty({ type: 'string', description: 'Seed the generated ids derive from: the same source and seed give the same ids.', maxLength: 200 })
  @IsString()
  @MaxLength(200)
  seed: string;
}

export class ComputeRevisionDto extends ComputeContentDto {
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: `${SOURCE} Revision props: \`models\` (boolean: add a page of the spec's schemas), \`grouping\` (\`by-tag\`, the default, or \`by-operation\`), \`downloadLink\` (boolean).`,
  })
  @IsObject()
  source: Record<string, unknown>;
}

export class ComputeDocumentDto extends ComputeContentDto {
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      `${SOURCE} Document props: \`doc\` = \`tag\` (the tag's description and operations; \`page\` = the tag, \`Other\` for untagged ` +
      'operations), `operations` (the operations alone), `info` (the description alone), `operation` (`page` = the path, `method`) ' +
      'or `models` (every schema).',
  })
  @IsObject()
  source: Record<string, unknown>;
}

export class ComputeDocumentQueryDto {
  @ApiPropertyOptional({ enum: ['current', 'next'], description: "GitBook's document schema version; both give the same documents here." })
  @IsOptional()
  @IsIn(['current', 'next'])
  schema?: 'current' | 'next';
}
