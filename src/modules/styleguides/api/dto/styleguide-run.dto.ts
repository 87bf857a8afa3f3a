import { ApiProperty } from '@nestjs/swagger';
import { Allow, IsDefined } from 'class-validator';

export class CreateStyleguideRunDto {
  @ApiProperty({
    type: 'array',
    items: { type: 'string', minLength: 1, maxLength: 64 },
    minItems: 1,
    maxItems: 3,
    description: "Ids of the site's spaces to check: not the style guide itself; the caller must be able to edit each",
  })
  @IsDefined()
  @Allow()
  spaces: unknown;
}
