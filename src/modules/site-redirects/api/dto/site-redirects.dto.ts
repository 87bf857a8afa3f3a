import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { Allow, ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsDefined, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { ListQueryDto } from '@app/common';

const SOURCE = 'A path under the site: `/old/page`, or `/old/*` (or `/old*`) for every path below; letters, digits, `-._~+` and percent-escapes';
const DESTINATION =
  '`{kind: "external", url}`, `{kind: "site-section", siteSectionId}`, `{kind: "site-space", siteSpaceId}`, ' +
  '`{kind: "site-page", siteSpaceId, pageId}`, or `{kind: "path", spaceId, path}` (a page of a space of the site by its path, stored as `site-page`)';

function booleanQuery({ value }: { value: unknown }): unknown {
  return value === 'true' ? true : value === 'false' ? false : value;
}

export class ListSiteRedirectsQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ description: 'Only redirects whose source contains this (case-insensitive)', maxLength: 512 })
  @IsOptional()
  @IsString()
  @MaxLength(512)
  search?: string;

  @ApiPropertyOptional({ type: Boolean, default: false, description: 'true: the draft redirects; false: the live ones' })
  @IsOptional()
  @Transform(booleanQuery)
  @IsBoolean()
  draft?: boolean;

  @ApiPropertyOptional({ enum: ['createdAt', 'updatedAt', 'source'], default: 'createdAt', description: 'Newest first, last changed first, or by source' })
  @IsOptional()
  @IsIn(['createdAt', 'updatedAt', 'source'])
  orderBy?: 'createdAt' | 'updatedAt' | 'source';
}

export class RedirectBySourceQueryDto {
  @ApiProperty({ description: SOURCE, maxLength: 512 })
  @IsString()
  @MaxLength(512)
  source: string;

  @ApiPropertyOptional({ description: 'Share key of a share-link site (members do not need it)', maxLength: 128 })
  @IsOptional()
  @IsString()
  @MaxLength(128)
  shareKey?: string;
}

export class CreateSiteRedirectDto {
  @ApiProperty({ description: SOURCE, maxLength: 512 }) @IsDefined() @Allow() source: unknown;
  @ApiProperty({ type: 'object', additionalProperties: true, description: DESTINATION }) @IsDefined() @Allow() destination: unknown;
  @ApiPropertyOptional({ type: Boolean, default: false, description: 'Append what the wildcard matched to the destination' }) @Allow() captureWildcard?: unknown;
  @ApiPropertyOptional({ type: Boolean, default: false, description: 'A draft redirect is kept but not applied' }) @Allow() draft?: unknown;
  @ApiPropertyOptional({ type: Boolean, default: false, description: 'Readers get 308 (permanent) instead of 307' }) @Allow() permanent?: unknown;
}

export class UpdateSiteRedirectDto {
  @ApiPropertyOptional({ description: SOURCE, maxLength: 512 }) @Allow() source?: unknown;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: DESTINATION }) @Allow() destination?: unknown;
  @ApiPropertyOptional({ type: Boolean }) @Allow() captureWildcard?: unknown;
  @ApiPropertyOptional({ type: Boolean, description: 'false promotes a draft redirect to live (409 when the source has a live one)' }) @Allow() draft?: unknown;
  @ApiPropertyOptional({ type: Boolean }) @Allow() permanent?: unknown;
}

export class BulkUpsertSiteRedirectsDto {
  @ApiProperty({
    type: 'array',
    minItems: 1,
    maxItems: 500,
    items: { type: 'object', additionalProperties: true },
    description:
      'Each `{source, intent?, destination?, captureWildcard?, permanent?}`: `intent` `live` (default) or `draft` upserts that redirect ' +
      '(`destination: null` deletes it), `publish` makes the source\'s draft its live redirect. Each item is answered on its own.',
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(500)
  redirects: Array<Record<string, unknown>>;
}
