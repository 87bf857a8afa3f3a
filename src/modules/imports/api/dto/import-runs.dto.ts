import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow, IsIn, IsObject, IsOptional, IsString, MaxLength } from 'class-validator';
import { ListQueryDto } from '@app/common';
import { IMPORT_STATUS_FILTERS, ImportStatusFilter } from '../../domain/import-run';

/** Declared for the served OpenAPI document; the service checks the values (400 naming the field). */
export class StartImportRunDto {
  @ApiProperty({
    required: true,
    description: 'The website to import (`file` sources are refused: they need GitBook\'s upload storage)',
    oneOf: [
      { type: 'object', required: ['type', 'url'], properties: { type: { type: 'string', enum: ['website'] }, url: { type: 'string', format: 'uri', maxLength: 2048 } } },
      { type: 'object', required: ['type', 'files'], properties: { type: { type: 'string', enum: ['file'] }, files: { type: 'array', items: { type: 'string' } } } },
    ],
  } as never)
  @IsObject()
  source: unknown;

  @ApiProperty({
    required: true,
    description: 'The space to import into; with `changeRequest`, into that open change request; with `page`, under that page',
    allOf: [{ type: 'object', required: ['space'], properties: { space: { type: 'string' }, changeRequest: { type: 'string' }, page: { type: 'string' } } }],
  } as never)
  @IsObject()
  target: unknown;

  @ApiPropertyOptional({ type: String, description: 'The site the import is for (listed among its imports); by default the one site showing the space, if exactly one' })
  @Allow()
  site?: unknown;

  @ApiPropertyOptional({ type: Boolean, description: 'Accepted for compatibility and ignored: pages are imported as read, without AI rewriting' })
  @Allow()
  enhance?: unknown;
}

export class ListImportRunsQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ description: 'Only runs targeting this space' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  space?: string;

  @ApiPropertyOptional({ description: 'Only runs targeting this change request' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  changeRequest?: string;

  @ApiPropertyOptional({ description: 'Only runs for this site' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  site?: string;

  @ApiPropertyOptional({ enum: IMPORT_STATUS_FILTERS, description: '`active`: pending and in-progress runs' })
  @IsOptional()
  @IsIn(IMPORT_STATUS_FILTERS)
  status?: ImportStatusFilter;
}
