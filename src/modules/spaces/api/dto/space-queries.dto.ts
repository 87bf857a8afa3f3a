import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { ListQueryDto } from '@app/common';

export class GetSpaceQueryDto {
  @ApiPropertyOptional({ description: 'Accepted for compatibility with GitBook clients; share links are not supported yet' })
  @IsOptional()
  @IsString()
  @MaxLength(256)
  shareKey?: string;
}

export class ListMemberSpacesQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ enum: ['asc', 'desc'], default: 'asc', description: 'By creation date' })
  @IsOptional()
  @IsIn(['asc', 'desc'])
  order?: 'asc' | 'desc';
}
