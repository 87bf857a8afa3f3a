import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsISO8601, IsOptional, MaxLength, ValidateIf } from 'class-validator';
import { MEMBER_ROLES, OrgRole } from '../../../access/domain/roles';

/**
 * POST /orgs/{id}/link-invites: GitBook's `CreateInviteToOrganization` ({role}). Its space and
 * collection variants ({level, space} / {level, collection}) are recognised so that they get a
 * clear 400 rather than "property should not exist". `expiresAt` is an extension: the link
 * stops working at that instant.
 */
export class CreateLinkInviteDto {
  @ApiProperty({ enum: MEMBER_ROLES, nullable: true, description: 'Role of whoever joins through the link; null: as a guest' })
  @ValidateIf((o: CreateLinkInviteDto) => o.space === undefined && o.collection === undefined)
  @IsIn([...MEMBER_ROLES, null])
  role?: OrgRole;

  @ApiPropertyOptional({ format: 'date-time', nullable: true, description: 'When the link stops working (extension); null or absent: never' })
  @IsOptional()
  @IsISO8601({ strict: true, strictSeparator: true })
  @MaxLength(64)
  expiresAt?: string | null;

  @ApiPropertyOptional({ description: 'Not supported: invite links to a space (400)' })
  @IsOptional()
  space?: unknown;

  @ApiPropertyOptional({ description: 'Not supported: invite links to a collection (400)' })
  @IsOptional()
  collection?: unknown;

  @ApiPropertyOptional({ description: 'Level of a space or collection invite link; not supported (400)' })
  @IsOptional()
  level?: unknown;
}

/** PATCH /orgs/{id}/link-invites/{inviteId}: `{role}`; the contract's `{level}` variant is for content invite links. */
export class UpdateLinkInviteDto {
  @ApiProperty({ enum: MEMBER_ROLES, nullable: true })
  @ValidateIf((o: UpdateLinkInviteDto) => o.level === undefined)
  @IsIn([...MEMBER_ROLES, null])
  role?: OrgRole;

  @ApiPropertyOptional({ description: 'Level of a space or collection invite link; not supported (400)' })
  @IsOptional()
  level?: unknown;
}
