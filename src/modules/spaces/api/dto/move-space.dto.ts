import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { Omittable, RefusesEmptyBody } from '@app/common';
import { ContentPosition } from '../../../access/domain/content-position';
import { IsContentPosition } from './validators';

const POINTER = {
  type: 'object' as const,
  required: ['type'],
  properties: {
    type: { type: 'string' as const, enum: ['space', 'collection'] },
    space: { type: 'string' as const },
    collection: { type: 'string' as const },
  },
};

/** The body of POST /spaces/{spaceId}/move; at least one property is required. */
@RefusesEmptyBody()
export class MoveSpaceDto {
  @ApiPropertyOptional({ nullable: true, description: 'Id of the new parent collection; null for the organization root' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  parent?: string | null;

  @ApiPropertyOptional({
    type: 'object',
    properties: { before: POINTER, after: POINTER },
    description: '{before?, after?}: a sibling {type: space, space} or {type: collection, collection}; by default the end of the parent',
  })
  @Omittable()
  @IsContentPosition()
  position?: ContentPosition;
}
