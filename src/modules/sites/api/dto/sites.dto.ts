import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { Allow, IsBoolean, IsIn, IsObject, IsOptional, IsString, MaxLength } from 'class-validator';
import { ListQueryDto } from '@app/common';
import { AGENTS_CONTEXTS, SITE_TYPES, SITE_VISIBILITIES } from '../../domain/site';

/*
 * Bodies are declared here for the served OpenAPI document and the unknown-property check; their
 * values are checked by the services (lengths, patterns, enums, references), which answer 400
 * with the field named.
 */

const POINTER = {
  type: 'object',
  required: ['type', 'id'],
  properties: { type: { type: 'string', enum: ['site-space', 'site-section', 'site-section-group', 'site-external-link'] }, id: { type: 'string' } },
};
const POSITION = { type: 'object', properties: { before: POINTER, after: POINTER } };

function booleanQuery({ value }: { value: unknown }): unknown {
  return value === 'true' ? true : value === 'false' ? false : value;
}

export class ListSitesQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ description: 'Only sites showing this space' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  space?: string;

  @ApiPropertyOptional({ description: 'Only sites whose title contains this (case-insensitive)' })
  @IsOptional()
  @IsString()
  @MaxLength(128)
  title?: string;

  @ApiPropertyOptional({ type: Boolean })
  @IsOptional()
  @Transform(booleanQuery)
  @IsBoolean()
  published?: boolean;

  @ApiPropertyOptional({ enum: SITE_TYPES, isArray: true })
  @IsOptional()
  @Transform(({ value }) => (typeof value === 'string' ? [value] : value))
  @IsIn(SITE_TYPES, { each: true })
  type?: string[];
}

export class ShareKeyQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ description: 'Share key of a share-link site (members do not need it)' })
  @IsOptional()
  @IsString()
  @MaxLength(128)
  shareKey?: string;
}

export class ListSiteSpacesQueryDto extends ShareKeyQueryDto {
  @ApiPropertyOptional({ type: Boolean, description: 'true: only the default site space; false: only the others' })
  @IsOptional()
  @Transform(booleanQuery)
  @IsBoolean()
  default?: boolean;
}

export class CreateSiteDto {
  @ApiPropertyOptional({ enum: SITE_TYPES, default: 'basic' }) @Allow() type?: unknown;
  @ApiPropertyOptional({ minLength: 2, maxLength: 128 }) @Allow() title?: unknown;
  @ApiPropertyOptional({ enum: SITE_VISIBILITIES, default: 'public' }) @Allow() visibility?: unknown;
  @ApiPropertyOptional({ type: [String], description: 'Spaces to publish (the first is the default site space)' }) @Allow() spaces?: unknown;
}

export class UpdateSiteDto {
  @ApiPropertyOptional({ minLength: 2, maxLength: 128 }) @Allow() title?: unknown;
  @ApiPropertyOptional({ enum: SITE_VISIBILITIES, description: 'Organization admins only' }) @Allow() visibility?: unknown;
  @ApiPropertyOptional({ nullable: true, description: 'Readers reach the site at /sites/{basename}; unique across the server (409)' }) @Allow() basename?: unknown;
  @ApiPropertyOptional({ nullable: true, description: 'A custom host name serving the site at its root (admins; unique, 409)' }) @Allow() hostname?: unknown;
  @ApiPropertyOptional({ type: 'object', properties: { enabled: { type: 'boolean' } } } as never) @Allow() adaptiveContent?: unknown;
  @ApiPropertyOptional({ enum: AGENTS_CONTEXTS }) @Allow() agentsContext?: unknown;
  @ApiPropertyOptional({ description: 'Site space id: the default at the root, or in the default section' }) @Allow() defaultSiteSpace?: unknown;
  @ApiPropertyOptional() @Allow() defaultSiteSection?: unknown;
  @ApiPropertyOptional({ nullable: true, description: 'example.com/docs; null removes the proxy' }) @Allow() proxy?: unknown;
}

export class AdaptiveSchemaDto {
  @ApiProperty({
    type: 'object',
    description: 'A JSON Schema draft-07 object schema of the visitor claims: described claim properties (boolean, string, number, array, object), optionally an `unsigned` object of the same, no additional properties',
    required: ['type', 'properties', 'additionalProperties'],
    properties: { $schema: { type: 'string', enum: ['http://json-schema.org/draft-07/schema#'] }, type: { type: 'string', enum: ['object'] }, properties: { type: 'object' }, additionalProperties: { type: 'boolean', enum: [false] } },
  } as never)
  @IsObject()
  jsonSchema: unknown;
}

export class AddSectionDto {
  @ApiProperty() @IsString() @MaxLength(64) spaceId: string;
  @ApiPropertyOptional({ minLength: 2, maxLength: 128, nullable: true }) @Allow() title?: unknown;
  @ApiPropertyOptional({ maxLength: 50, nullable: true }) @Allow() icon?: unknown;
}

export class UpdateSectionDto {
  @ApiPropertyOptional({ minLength: 2, maxLength: 128 }) @Allow() title?: unknown;
  @ApiPropertyOptional({ minLength: 1, maxLength: 100 }) @Allow() path?: unknown;
  @ApiPropertyOptional() @Allow() defaultSiteSpace?: unknown;
  @ApiPropertyOptional({ maxLength: 1024, nullable: true, description: 'An expression over visitor claims, e.g. `visitor.claims.unsigned.isBeta == true`; null removes it' }) @Allow() condition?: unknown;
  @ApiPropertyOptional({ maxLength: 50, nullable: true }) @Allow() icon?: unknown;
  @ApiPropertyOptional({ maxLength: 256, nullable: true }) @Allow() description?: unknown;
}

export class MoveDto {
  @ApiPropertyOptional({ ...POSITION, description: 'before and/or after a sibling of the same level' } as never) @Allow() position?: unknown;
}

export class SortStructureDto {
  @ApiProperty(POINTER as never) @IsObject() item: unknown;
  @ApiPropertyOptional({ ...POSITION, description: 'Without a position the item goes to the end of its level' } as never) @Allow() position?: unknown;
}

export class AddSectionGroupDto {
  @ApiProperty({ minLength: 1, maxLength: 100 }) @IsString() title: string;
  @ApiPropertyOptional({ maxLength: 50, nullable: true }) @Allow() icon?: unknown;
  @ApiPropertyOptional({ type: [String] }) @Allow() sections?: unknown;
  @ApiPropertyOptional({ description: 'Parent group id; omitted: the site root' }) @Allow() parent?: unknown;
}

export class UpdateSectionGroupDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 100 }) @Allow() title?: unknown;
  @ApiPropertyOptional({ maxLength: 50, nullable: true }) @Allow() icon?: unknown;
}

export class AddSectionToGroupDto {
  @ApiProperty() @IsString() @MaxLength(64) sectionId: string;
}

export class AddSiteSpaceDto {
  @ApiProperty() @IsString() @MaxLength(64) spaceId: string;
  @ApiPropertyOptional({ description: 'Omitted: the default section, or the root of a site without sections' }) @Allow() sectionId?: unknown;
}

export class CreateStyleguideDto {
  @ApiPropertyOptional({ description: 'A built-in template id (listStyleguideTemplates); omitted: a blank style guide' }) @Allow() template?: unknown;
}

export class DuplicateSiteSpaceDto {
  @ApiPropertyOptional({ default: false, description: 'Only false: nothing in a site is a draft here' }) @Allow() draft?: unknown;
}

export class UpdateSiteSpaceDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 100 }) @Allow() path?: unknown;
  @ApiPropertyOptional({ maxLength: 1024, nullable: true }) @Allow() condition?: unknown;
  @ApiPropertyOptional() @Allow() spaceId?: unknown;
}

export class CreateShareLinkDto {
  @ApiProperty({ maxLength: 50 }) @IsString() name: string;
}

export class UpdateShareLinkDto {
  @ApiPropertyOptional({ maxLength: 50 }) @Allow() name?: unknown;
  @ApiPropertyOptional({ description: 'false revokes the link at once' }) @Allow() active?: unknown;
}

export class UpdatePublishingAuthDto {
  @ApiProperty({ enum: ['custom'] }) @IsIn(['custom'], { message: 'backend must be "custom" (integration backends are not available on this server)' }) backend: string;
  @ApiPropertyOptional({ nullable: true, format: 'uri', description: 'Where refused readers are sent to sign in' }) @Allow() fallbackURL?: unknown;
}

export class ResolvePublishedUrlDto {
  @ApiProperty({ format: 'uri' }) @IsString() @MaxLength(4096) url: string;
  @ApiPropertyOptional({ default: false }) @IsOptional() @IsBoolean() redirectOnError?: boolean;
  @ApiPropertyOptional({ type: 'object', properties: { jwtToken: { type: 'string' }, unsignedClaims: { type: 'object' }, type: { type: 'string', enum: ['human', 'agent'] } } } as never)
  @Allow()
  visitor?: unknown;
}

export class PublishedUrlQueryDto {
  @ApiProperty({ format: 'uri' }) @IsString() @MaxLength(4096) url: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(8192) visitorAuthToken?: string;
  @ApiPropertyOptional() @IsOptional() @Transform(booleanQuery) @IsBoolean() redirectOnError?: boolean;
}

export class SitePreviewQueryDto {
  @ApiPropertyOptional({ description: 'Site space to open the preview at (default: the site root, which shows the default site space)' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  siteSpace?: string;

  @ApiPropertyOptional({ description: 'The visitor to preview for: a Rison-encoded object of claims, like `(plan:pro,beta:!t)` (at most 4,096 characters)' })
  @IsOptional()
  @IsString()
  claims?: string;
}

export class AddExternalLinkDto {
  @ApiProperty({ minLength: 2, maxLength: 128 }) @Allow() title: unknown;
  @ApiProperty({ format: 'uri', maxLength: 2048, description: 'An absolute http:// or https:// address' }) @Allow() url: unknown;
  @ApiPropertyOptional({ maxLength: 256, nullable: true }) @Allow() description?: unknown;
  @ApiPropertyOptional({ maxLength: 50, nullable: true }) @Allow() icon?: unknown;
  @ApiPropertyOptional({ description: 'A section group id; omitted: the site root' }) @Allow() parent?: unknown;
  @ApiPropertyOptional({ type: Boolean, description: 'Drafts are left out of what readers see' }) @Allow() draft?: unknown;
  @ApiPropertyOptional({ nullable: true, description: 'An adaptive-content condition on visitor claims' }) @Allow() condition?: unknown;
}

export class UpdateExternalLinkDto {
  @ApiPropertyOptional({ minLength: 2, maxLength: 128 }) @Allow() title?: unknown;
  @ApiPropertyOptional({ format: 'uri', maxLength: 2048 }) @Allow() url?: unknown;
  @ApiPropertyOptional({ maxLength: 256, nullable: true }) @Allow() description?: unknown;
  @ApiPropertyOptional({ maxLength: 50, nullable: true }) @Allow() icon?: unknown;
  @ApiPropertyOptional({ nullable: true, description: 'A section group id to move the link into; null: the site root' }) @Allow() parent?: unknown;
  @ApiPropertyOptional({ type: Boolean }) @Allow() draft?: unknown;
  @ApiPropertyOptional({ nullable: true }) @Allow() condition?: unknown;
}

export class SiteChannelDto {
  @ApiPropertyOptional({ enum: ['builtin:slack', 'builtin:discord', 'builtin:github', 'builtin:linear'] }) @Allow() type?: unknown;
  @ApiPropertyOptional({ type: Object, description: 'The type\'s one list: `allowedChannels` (Slack, Discord), `allowedTeams` (Linear) or `allowedRepositories` (GitHub, "owner/repo" patterns)' })
  @Allow()
  setupSettings?: unknown;
  @ApiPropertyOptional({ enum: ['collaborator', 'support'], description: 'Default: support' }) @Allow() role?: unknown;
}
