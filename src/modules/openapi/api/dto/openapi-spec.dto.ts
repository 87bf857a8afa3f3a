import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsObject, IsString, Length, Matches } from 'class-validator';
import { SPEC_SLUG, SPEC_SLUG_MAX, SPEC_VISIBILITIES, SpecVisibility } from '../../domain/openapi-spec';

const SOURCE_SCHEMA = {
  oneOf: [
    { type: 'object', required: ['url'], properties: { url: { type: 'string', format: 'uri', maxLength: 2048 } }, additionalProperties: false },
    { type: 'object', required: ['text'], properties: { text: { type: 'string', minLength: 1 } }, additionalProperties: false },
  ],
};

/** Body of PUT /orgs/{organizationId}/openapi/{specSlug}. */
export class PutOpenAPISpecDto {
  @ApiProperty({ ...SOURCE_SCHEMA, description: 'A URL to fetch the spec from (http or https), or the spec as text (JSON or YAML)' } as never)
  @IsObject()
  source: Record<string, unknown>;
}

/** Body of POST /orgs/{organizationId}/openapi. */
export class CreateOpenAPISpecDto extends PutOpenAPISpecDto {
  @ApiProperty({ minLength: 1, maxLength: SPEC_SLUG_MAX, pattern: SPEC_SLUG.source })
  @IsString()
  @Length(1, SPEC_SLUG_MAX)
  @Matches(SPEC_SLUG)
  slug: string;
}

/** Body of PATCH /orgs/{organizationId}/openapi/{specSlug}. */
export class UpdateOpenAPISpecDto {
  @ApiProperty({ enum: SPEC_VISIBILITIES })
  @IsIn(SPEC_VISIBILITIES)
  visibility: SpecVisibility;
}
