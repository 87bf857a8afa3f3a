import { ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsIn, IsString, Length, ValidateBy, ValidationOptions } from 'class-validator';
import { Omittable } from '@app/common';
import { TEAM_ROLES, TeamRole } from '../../../access/domain/roles';
import { isTeamRole } from '../../domain/team';
import { MAX_MEMBERS_PER_REQUEST } from './create-team.dto';

/** A map of user id to `{role}`, each value exactly `{role: "owner" | "member"}`. */
function IsMembershipMap(options?: ValidationOptions) {
  return ValidateBy(
    {
      name: 'isMembershipMap',
      validator: {
        validate: (value: unknown) => {
          if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
          const entries = Object.entries(value);
          if (entries.length > MAX_MEMBERS_PER_REQUEST) return false;
          return entries.every(
            ([key, entry]) =>
              key.length >= 1 &&
              key.length <= 320 &&
              typeof entry === 'object' &&
              entry !== null &&
              !Array.isArray(entry) &&
              Object.keys(entry).length === 1 &&
              isTeamRole((entry as { role?: unknown }).role),
          );
        },
        defaultMessage: () =>
          `must be an object mapping at most ${MAX_MEMBERS_PER_REQUEST} user ids to {"role": "owner" | "member"}`,
      },
    },
    options,
  );
}

/** Body of PUT /orgs/{organizationId}/teams/{teamId}/members. */
export class UpdateTeamMembersDto {
  @ApiPropertyOptional({ type: [String], maxItems: MAX_MEMBERS_PER_REQUEST, description: 'User ids or e-mail addresses to add' })
  @Omittable()
  @IsArray()
  @ArrayMaxSize(MAX_MEMBERS_PER_REQUEST)
  @IsString({ each: true })
  @Length(1, 320, { each: true })
  add?: string[];

  @ApiPropertyOptional({
    type: [String],
    maxItems: MAX_MEMBERS_PER_REQUEST,
    description: 'User ids or e-mail addresses to remove; a user in both `add` and `remove` is removed',
  })
  @Omittable()
  @IsArray()
  @ArrayMaxSize(MAX_MEMBERS_PER_REQUEST)
  @IsString({ each: true })
  @Length(1, 320, { each: true })
  remove?: string[];

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'object', properties: { role: { type: 'string', enum: [...TEAM_ROLES] } }, required: ['role'] },
    description: 'Role to set for each user (added to the team when not yet in it)',
  })
  @Omittable()
  @IsMembershipMap()
  memberships?: Record<string, { role: TeamRole }>;
}

/** Body of PUT /orgs/{organizationId}/teams/{teamId}/members/{userId}. */
export class SetTeamMemberDto {
  @ApiPropertyOptional({ enum: TEAM_ROLES, description: 'Defaults to `member` for a new member; an existing member keeps their role' })
  @Omittable()
  @IsIn([...TEAM_ROLES])
  role?: TeamRole;
}

