import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsString, Length } from 'class-validator';
import { ListQueryDto, Omittable } from '@app/common';
import { MEMBER_ROLES, MemberRole } from '../../../access/domain/roles';
import { MAX_PRINCIPALS_PER_REQUEST } from '../../domain/content-grant';

const ROLE_DOC = { enum: [...MEMBER_ROLES], nullable: true, description: 'The role to give; null removes the grant' };

/** Body of POST /spaces/{spaceId}/permissions and /collections/{collectionId}/permissions (GitBook's InviteUsersAndTeams). */
export class ShareContentDto {
  /** Required, and may be null (no `@IsOptional()`: a missing role is not in the list). */
  @ApiProperty(ROLE_DOC)
  @IsIn([...MEMBER_ROLES, null])
  role: MemberRole | null;

  @ApiPropertyOptional({ type: [String], minItems: 1, maxItems: MAX_PRINCIPALS_PER_REQUEST, description: 'User ids; each must be a member of the organization (guests too)' })
  @Omittable()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_PRINCIPALS_PER_REQUEST)
  @IsString({ each: true })
  @Length(1, 64, { each: true })
  users?: string[];

  @ApiPropertyOptional({ type: [String], minItems: 1, maxItems: MAX_PRINCIPALS_PER_REQUEST, description: 'Team ids of the organization' })
  @Omittable()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_PRINCIPALS_PER_REQUEST)
  @IsString({ each: true })
  @Length(1, 64, { each: true })
  teams?: string[];
}

/** Body of PATCH .../permissions/users/{userId} and .../permissions/teams/{teamId}. */
export class UpdatePermissionDto {
  @ApiProperty(ROLE_DOC)
  @IsIn([...MEMBER_ROLES, null])
  role: MemberRole | null;
}

/** Query of GET .../permissions/aggregate. */
export class ListAudienceQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ enum: [...MEMBER_ROLES], description: 'Only users with exactly this effective role' })
  @Omittable()
  @IsIn([...MEMBER_ROLES])
  role?: MemberRole;
}
