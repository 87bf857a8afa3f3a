import { ApiProperty } from '@nestjs/swagger';
import { IsString, Length } from 'class-validator';
import { TEAM_TITLE_MAX } from '../../domain/team';

/** Body of PATCH /orgs/{organizationId}/teams/{teamId}. */
export class UpdateTeamDto {
  @ApiProperty({ minLength: 1, maxLength: TEAM_TITLE_MAX })
  @IsString()
  @Length(1, TEAM_TITLE_MAX)
  title: string;
}
