import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { Omittable } from '@app/common';
import { DefaultLevel, MEMBER_ROLES } from '../../../access/domain/roles';
import { COLLECTION_DESCRIPTION_MAX, COLLECTION_TITLE_MAX } from '../../domain/collection';

export const DEFAULT_LEVELS = [...MEMBER_ROLES, 'inherit', null] as const;

export class UpdateCollectionDto {
  @ApiPropertyOptional({ maxLength: COLLECTION_TITLE_MAX })
  @Omittable()
  @IsString()
  @MaxLength(COLLECTION_TITLE_MAX)
  title?: string;

  @ApiPropertyOptional({ maxLength: COLLECTION_DESCRIPTION_MAX, description: 'An empty string clears it' })
  @Omittable()
  @IsString()
  @MaxLength(COLLECTION_DESCRIPTION_MAX)
  description?: string;

  @ApiPropertyOptional({
    enum: [...MEMBER_ROLES, 'inherit'],
    nullable: true,
    description: '`inherit` takes the parent\'s level; null gives members no default access',
  })
  @IsOptional()
  @IsIn(DEFAULT_LEVELS as unknown as unknown[])
  defaultLevel?: DefaultLevel;
}
