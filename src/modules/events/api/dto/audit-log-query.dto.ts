import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsDateString, IsOptional, IsString, MaxLength } from 'class-validator';
import { ListQueryDto } from '@app/common';

export class AuditLogQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ description: "Entries by this actor: a user's id, or a job's name for changes the system made" })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  actor?: string;

  @ApiPropertyOptional({ description: 'Entries of this operation: an API operationId (`updateSpaceById`) or `job:<name>`' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  action?: string;

  @ApiPropertyOptional({ description: 'Entries that touched this resource id (a space, change request, site, member...)' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  resource?: string;

  @ApiPropertyOptional({ description: 'From this time on (inclusive), ISO 8601', format: 'date-time' })
  @IsOptional()
  @IsDateString({ strict: true })
  from?: string;

  @ApiPropertyOptional({ description: 'Before this time (exclusive), ISO 8601', format: 'date-time' })
  @IsOptional()
  @IsDateString({ strict: true })
  to?: string;
}
