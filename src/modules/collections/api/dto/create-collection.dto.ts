import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { Omittable } from '@app/common';
import { COLLECTION_TITLE_MAX } from '../../domain/collection';

export class CreateCollectionDto {
  @ApiPropertyOptional({ maxLength: COLLECTION_TITLE_MAX, description: 'Defaults to "Untitled"' })
  @Omittable()
  @IsString()
  @MaxLength(COLLECTION_TITLE_MAX)
  title?: string;

  @ApiPropertyOptional({ description: 'Id of the parent collection, in the same organization' })
  @Omittable()
  @IsString()
  @MaxLength(64)
  parent?: string;
}
