import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { ListQueryDto } from '@app/common';

/** Query of GET /orgs/{organizationId}/members/{userId}/teams. */
export class ListMemberTeamsQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ description: 'Case-insensitive "title contains" filter', maxLength: 256 })
  @IsOptional()
  @IsString()
  @MaxLength(256)
  title?: string;
}

/** Query of GET /orgs/{organizationId}/teams. */
export class ListTeamsQueryDto extends ListMemberTeamsQueryDto {
  @ApiPropertyOptional({
    description:
      'Member (user) id: only the teams that member can manage (all teams for an organization admin, else the teams they own)',
    maxLength: 64,
  })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  owner?: string;
}
