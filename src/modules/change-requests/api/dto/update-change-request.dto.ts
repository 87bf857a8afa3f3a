import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsObject, IsString, MaxLength } from 'class-validator';
import { Omittable } from '@app/common';
import { CHANGE_REQUEST_SUBJECT_MAX, SETTABLE_STATUSES, SettableStatus } from '../../domain/change-request';

/** PATCH /spaces/{spaceId}/change-requests/{changeRequestId}. `merged` only comes from merging. */
export class UpdateChangeRequestDto {
  @ApiPropertyOptional({ maxLength: CHANGE_REQUEST_SUBJECT_MAX })
  @Omittable()
  @IsString()
  @MaxLength(CHANGE_REQUEST_SUBJECT_MAX)
  subject?: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'Rich-text document {object: "document", data, nodes}' })
  @Omittable()
  @IsObject()
  description?: Record<string, unknown>;

  @ApiPropertyOptional({ enum: SETTABLE_STATUSES })
  @Omittable()
  @IsIn(SETTABLE_STATUSES)
  status?: SettableStatus;
}
