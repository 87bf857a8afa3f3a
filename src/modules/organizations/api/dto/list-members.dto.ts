import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsString, MaxLength } from 'class-validator';
import { ListQueryDto, Omittable } from '@app/common';
import { MEMBER_ROLES } from '../../../access/domain/roles';
import { MemberRoleFilter, MemberSort } from '../../domain/member';

export class ListMembersQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ enum: ['asc', 'desc'], default: 'desc' })
  @Omittable()
  @IsIn(['asc', 'desc'])
  order?: 'asc' | 'desc';

  @ApiPropertyOptional({ enum: [...MEMBER_ROLES, 'guest'], description: '`guest`: members without a role' })
  @Omittable()
  @IsIn([...MEMBER_ROLES, 'guest'])
  role?: MemberRoleFilter;

  @ApiPropertyOptional({ description: 'Case-insensitive text contained in the display name or e-mail', maxLength: 255 })
  @Omittable()
  @IsString()
  @MaxLength(255)
  search?: string;

  @ApiPropertyOptional({
    enum: ['joinedAt', 'lastSeenAt', 'name'],
    default: 'joinedAt',
    description: '`lastSeenAt` lists only members seen at least once; `name` sorts by display name',
  })
  @Omittable()
  @IsIn(['joinedAt', 'lastSeenAt', 'name'])
  sort?: MemberSort;
}
