import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { ListQueryDto } from '@app/common';
import { CHANGE_REQUEST_STATUSES, ChangeRequestStatus } from '../../domain/change-request';

export class ListChangeRequestsQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ enum: CHANGE_REQUEST_STATUSES, default: 'open' })
  @IsOptional()
  @IsIn(CHANGE_REQUEST_STATUSES)
  status?: ChangeRequestStatus;

  @ApiPropertyOptional({ description: 'Only change requests created by this user' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  creator?: string;

  @ApiPropertyOptional({ description: 'Only change requests this user edited' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  contributor?: string;

  @ApiPropertyOptional({ description: 'Only change requests this user was asked to review' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  requestedReviewer?: string;

  @ApiPropertyOptional({ description: 'Only change requests of this conversations issues cluster' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  conversationsIssuesCluster?: string;
}
