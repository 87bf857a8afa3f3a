import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  IsUrl,
  Length,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { Omittable } from '@app/common';
import { MEMBER_ROLES, OrgRole } from '../../../access/domain/roles';

export class DefaultContentDto {
  @ApiProperty({ enum: ['site'] })
  @IsIn(['site'])
  type: 'site';

  @ApiProperty({ description: 'Site id' })
  @IsString()
  @Length(1, 64)
  site: string;
}

/** PATCH /orgs/{organizationId}: every field optional; nullable ones accept null to clear. */
export class UpdateOrganizationDto {
  @ApiPropertyOptional({ minLength: 2, maxLength: 255 })
  @Omittable()
  @IsString()
  @Length(2, 255)
  title?: string;

  @ApiPropertyOptional({ type: [String], maxItems: 100, description: 'Domains whose verified users may join' })
  @Omittable()
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  @MaxLength(253, { each: true })
  emailDomains?: string[];

  @ApiPropertyOptional({ minLength: 3, maxLength: 32, pattern: '^[a-z0-9][a-z0-9-]{1,30}[a-z0-9]$' })
  @Omittable()
  @IsString()
  @Length(3, 32)
  hostname?: string;

  @ApiPropertyOptional({ enum: MEMBER_ROLES, nullable: true, description: 'Role of new members; null: guests' })
  @IsOptional()
  @IsIn([...MEMBER_ROLES, null])
  defaultRole?: OrgRole;

  @ApiPropertyOptional({ type: DefaultContentDto, nullable: true })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => DefaultContentDto)
  defaultContent?: DefaultContentDto | null;

  @ApiPropertyOptional({ format: 'uri', maxLength: 2048, nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  @IsUrl({ protocols: ['http', 'https'], require_protocol: true, require_tld: false })
  logo?: string | null;

  @ApiPropertyOptional()
  @Omittable()
  @IsBoolean()
  sso?: boolean;

  @ApiPropertyOptional()
  @Omittable()
  @IsBoolean()
  ai?: boolean;

  @ApiPropertyOptional()
  @Omittable()
  @IsBoolean()
  inviteLinks?: boolean;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: '{type: "none"} or {type: "rules", rules: MergeRule[]}; rules are validated by the organization',
  })
  @Omittable()
  @IsObject()
  mergeRules?: Record<string, unknown>;
}
