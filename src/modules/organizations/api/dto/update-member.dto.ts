import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { MEMBER_ROLES, OrgRole } from '../../../access/domain/roles';

export class UpdateMemberDto {
  @ApiPropertyOptional({ enum: MEMBER_ROLES, nullable: true, description: 'null makes the member a guest' })
  @IsOptional()
  @IsIn([...MEMBER_ROLES, null])
  role?: OrgRole;
}
