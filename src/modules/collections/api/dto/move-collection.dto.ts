import { ApiProperty, ApiPropertyOptional, ApiPropertyOptions } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsObject, IsOptional, IsString, MaxLength, ValidateBy, ValidateNested, ValidationOptions } from 'class-validator';
import { Omittable } from '@app/common';
import { ContentPointer, ContentPosition } from '../../../access/domain/content-position';

/** `{type: 'space', space}` or `{type: 'collection', collection}`, with no other property. */
export function isContentPointer(value: unknown): value is ContentPointer {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  const keys = Object.keys(v).sort().join(',');
  if (v.type === 'space') return keys === 'space,type' && typeof v.space === 'string' && v.space.length > 0 && v.space.length <= 64;
  if (v.type === 'collection') {
    return keys === 'collection,type' && typeof v.collection === 'string' && v.collection.length > 0 && v.collection.length <= 64;
  }
  return false;
}

function IsContentPointer(options?: ValidationOptions) {
  return ValidateBy(
    {
      name: 'isContentPointer',
      validator: {
        validate: (value: unknown) => isContentPointer(value),
        defaultMessage: () => 'must be {"type": "space", "space": id} or {"type": "collection", "collection": id}',
      },
    },
    options,
  );
}

const pointerSchema = (description: string) =>
  ({
    description,
    oneOf: [
      { type: 'object', properties: { type: { enum: ['space'] }, space: { type: 'string' } }, required: ['type', 'space'] },
      { type: 'object', properties: { type: { enum: ['collection'] }, collection: { type: 'string' } }, required: ['type', 'collection'] },
    ],
  }) as ApiPropertyOptions;

export class ContentPositionDto implements ContentPosition {
  @ApiPropertyOptional(pointerSchema('Place the item just before this sibling'))
  @Omittable()
  @IsContentPointer()
  before?: ContentPointer;

  @ApiPropertyOptional(pointerSchema('Place the item just after this sibling'))
  @Omittable()
  @IsContentPointer()
  after?: ContentPointer;
}

export class MoveCollectionDto {
  @ApiPropertyOptional({ type: String, nullable: true, description: 'New parent collection; null for the organization root; omitted: unchanged' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  parent?: string | null;

  @ApiProperty({ type: ContentPositionDto, required: false })
  @Omittable()
  @IsObject()
  @ValidateNested()
  @Type(() => ContentPositionDto)
  position?: ContentPositionDto;
}
