import { ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsString, Length } from 'class-validator';
import { Omittable } from '@app/common';
import { UpdateTeamDto } from './team-title.dto';

export const MAX_MEMBERS_PER_REQUEST = 1000;

/** Body of PUT /orgs/{organizationId}/teams. */
export class CreateTeamDto extends UpdateTeamDto {
  @ApiPropertyOptional({ type: [String], maxItems: MAX_MEMBERS_PER_REQUEST, description: 'Member (user) ids; each must be a member of the organization' })
  @Omittable()
  @IsArray()
  @ArrayMaxSize(MAX_MEMBERS_PER_REQUEST)
  @IsString({ each: true })
  @Length(1, 64, { each: true })
  members?: string[];
}
