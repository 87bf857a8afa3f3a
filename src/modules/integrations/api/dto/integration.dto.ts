import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { Allow, ArrayMaxSize, IsArray, IsBoolean, IsDefined, IsIn, IsNumber, IsObject, IsOptional, IsString, Length, Matches, Max, MaxLength, Min } from 'class-validator';
import { ListQueryDto } from '@app/common';
import { INTEGRATION_SCOPES } from '../../domain/integration-manifest';

const booleanQuery = ({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value);
const OBJECT = { type: 'object', additionalProperties: true } as const;

/** GitBook's PublishIntegration; each manifest field is checked against GitBook's schema for it by the domain. */
export class PublishIntegrationDto {
  @ApiProperty({ type: String, description: 'The id of the organization publishing the integration (its admins publish)' }) @IsDefined() organization: unknown;
  @ApiPropertyOptional({ type: String, format: 'uri', description: "Ours: the https address of the integration's service (required on first publish). We POST signed events to `<endpoint>/events` and render requests to `<endpoint>/render`; this server never runs integration code, so `script` is ignored." }) @Allow() endpoint?: unknown;
  @ApiPropertyOptional({ type: String, minLength: 2, maxLength: 30 }) @Allow() title?: unknown;
  @ApiPropertyOptional({ type: String, maxLength: 100 }) @Allow() description?: unknown;
  @ApiPropertyOptional({ type: String, maxLength: 2048 }) @Allow() summary?: unknown;
  @ApiPropertyOptional({ enum: ['public', 'private', 'unlisted'], description: '`public` lists it for every organization of this server: instance administrators only' }) @Allow() visibility?: unknown;
  @ApiPropertyOptional({ enum: ['all', 'site', 'space', 'organization'] }) @Allow() target?: unknown;
  @ApiPropertyOptional({ type: 'array', items: { type: 'string', enum: [...INTEGRATION_SCOPES] } }) @Allow() scopes?: unknown;
  @ApiPropertyOptional({ type: 'array', items: { type: 'string' } }) @Allow() categories?: unknown;
  @ApiPropertyOptional({ type: 'array', items: OBJECT }) @Allow() blocks?: unknown;
  @ApiPropertyOptional({ type: 'array', items: OBJECT }) @Allow() contentSources?: unknown;
  @ApiPropertyOptional({ type: 'array', items: OBJECT }) @Allow() externalLinks?: unknown;
  @ApiPropertyOptional(OBJECT) @Allow() configurations?: unknown;
  @ApiPropertyOptional({ type: 'array', items: { type: 'string' } }) @Allow() previewImages?: unknown;
  @ApiPropertyOptional({ type: String, description: 'Base64 icon (accepted, not stored)' }) @Allow() icon?: unknown;
  @ApiPropertyOptional({ type: String, description: 'Integration code (accepted, never run)' }) @Allow() script?: unknown;
  @ApiPropertyOptional({ enum: ['v1', 'v2'] }) @Allow() runtime?: unknown;
  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' }, description: 'Stored sealed, never returned. `signingSecret` (24+ characters) chooses the key we sign calls with; without one the first publish makes one and returns it once as `signingSecret`.' }) @Allow() secrets?: unknown;
  @ApiPropertyOptional({ oneOf: [{ type: 'string' }, OBJECT] }) @Allow() contentSecurityPolicy?: unknown;
}

export class IntegrationSearchDto extends ListQueryDto {
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(200) search?: string;
  @ApiPropertyOptional({ enum: ['analytics', 'collaboration', 'content', 'marketing', 'visitor-auth', 'other'] }) @IsOptional() @IsIn(['analytics', 'collaboration', 'content', 'marketing', 'visitor-auth', 'other']) category?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @Matches(/^[a-zA-Z0-9-_.]+$/) @MaxLength(100) blockDomain?: string;
  @ApiPropertyOptional() @IsOptional() @Transform(booleanQuery) @IsBoolean() blocks?: boolean;
  @ApiPropertyOptional() @IsOptional() @Transform(booleanQuery) @IsBoolean() contentSources?: boolean;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(64) owner?: string;
  @ApiPropertyOptional({ enum: INTEGRATION_SCOPES }) @IsOptional() @IsIn(INTEGRATION_SCOPES) scope?: string;
  @ApiPropertyOptional({ enum: ['all', 'site', 'space', 'organization'] }) @IsOptional() @IsIn(['all', 'site', 'space', 'organization']) target?: string;
}

export class SiteIntegrationSearchDto {
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(200) search?: string;
}

export class OrganizationInstallationsQueryDto extends ListQueryDto {
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(200) search?: string;
}

export class ExternalIdQueryDto extends ListQueryDto {
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(256) externalId?: string;
  @ApiPropertyOptional() @IsOptional() @Transform(booleanQuery) @IsBoolean() extended?: boolean;
}

export class ExtendedQueryDto {
  @ApiPropertyOptional() @IsOptional() @Transform(booleanQuery) @IsBoolean() extended?: boolean;
}

export class InstallationsStatusQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ enum: ['organization', 'space', 'site'] }) @IsOptional() @IsIn(['organization', 'space', 'site']) target?: 'organization' | 'space' | 'site';
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(64) site?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(64) space?: string;
}

export class InstallIntegrationDto {
  @ApiProperty({ type: String }) @IsDefined() @IsString() organization: string;
}


const externalIds = () => ({ type: 'array' as const, maxItems: 5, items: { type: 'string' as const, minLength: 1, maxLength: 256 } });

export class UpdateInstallationDto {
  @ApiPropertyOptional(externalIds()) @IsOptional() @IsArray() @ArrayMaxSize(5) @IsString({ each: true }) @Length(1, 256, { each: true }) externalIds?: string[];
  @ApiPropertyOptional(OBJECT) @IsOptional() @IsObject() configuration?: Record<string, unknown>;
  @ApiPropertyOptional({ enum: ['all', 'selected'] }) @IsOptional() @IsIn(['all', 'selected']) space_selection?: 'all' | 'selected';
  @ApiPropertyOptional({ enum: ['all', 'selected'] }) @IsOptional() @IsIn(['all', 'selected']) site_selection?: 'all' | 'selected';
}

export class UpdateTargetInstallationDto {
  @ApiPropertyOptional(externalIds()) @IsOptional() @IsArray() @ArrayMaxSize(5) @IsString({ each: true }) @Length(1, 256, { each: true }) externalIds?: string[];
  @ApiPropertyOptional(OBJECT) @IsOptional() @IsObject() configuration?: Record<string, unknown>;
}

export class InstallOnSpaceDto {
  @ApiProperty({ type: String }) @IsDefined() @IsString() space: string;
}

export class InstallOnSiteDto {
  @ApiProperty({ type: String }) @IsDefined() @IsString() siteId: string;
}

export class DevelopmentModeDto {
  @ApiProperty({ type: String, minLength: 1, maxLength: 256 }) @IsDefined() @IsString() @MaxLength(256) tunnelUrl: string;
  @ApiPropertyOptional({ type: Boolean }) @IsOptional() @IsBoolean() all?: boolean;
}

export class QueueTaskDto {
  @ApiProperty({ type: 'object', additionalProperties: true }) @IsDefined() @IsObject() task: Record<string, unknown>;
  @ApiPropertyOptional({ type: Number, minimum: 0, maximum: 86400 }) @IsOptional() @IsNumber() @Min(0) @Max(86400) schedule?: number;
}

export class RenderIntegrationUiDto {
  @ApiProperty({ type: String }) @IsDefined() @IsString() @MaxLength(256) componentId: string;
  @ApiProperty({ type: 'object', additionalProperties: true }) @IsDefined() @IsObject() props: Record<string, unknown>;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) @IsOptional() @IsObject() state?: Record<string, unknown>;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'This server renders in documents: {type: "document", spaceId, editable, theme}' }) @IsDefined() @IsObject() context: Record<string, unknown>;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) @IsOptional() @IsObject() action?: Record<string, unknown>;
}

export class RenderQueryDto {
  @ApiProperty({ type: String, description: 'The render request as JSON compressed with lz-string (compressToEncodedURIComponent)' }) @IsDefined() @IsString() @MaxLength(65536) request: string;
}
