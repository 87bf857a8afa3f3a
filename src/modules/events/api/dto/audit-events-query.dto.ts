import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsDateString, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { Transform } from 'class-transformer';
import { PageRequest, decimalInteger } from '@app/common';

/** GitBook's audit events list: `limit` up to 100 (20 by default), `to` inclusive, `target` for a resource id. */
export class AuditEventsQueryDto {
  @ApiPropertyOptional({ description: 'Opaque cursor from the `next.page` of the previous response' })
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  page?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 20, description: 'Number of events to return, up to 100' })
  @IsOptional()
  @Transform(({ value }) => decimalInteger(value))
  @IsInt({ message: 'limit must be a decimal integer' })
  @Min(1)
  @Max(100)
  limit?: number;

  @ApiPropertyOptional({ description: 'Events at or after this time, ISO 8601', format: 'date-time' })
  @IsOptional()
  @IsDateString({ strict: true })
  from?: string;

  @ApiPropertyOptional({ description: 'Events at or before this time, ISO 8601', format: 'date-time' })
  @IsOptional()
  @IsDateString({ strict: true })
  to?: string;

  @ApiPropertyOptional({ description: 'Events of this action: an API operationId (`updateSpaceById`) or `job:<name>`' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  action?: string;

  @ApiPropertyOptional({ description: "Events by this actor: a user's id, or a job's name for changes the system made" })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  actor?: string;

  @ApiPropertyOptional({ description: 'Events that touched this resource id (a space, change request, site, member...)' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  target?: string;

  toPageRequest(): PageRequest {
    return { page: this.page, limit: this.limit ?? 20 };
  }
}
