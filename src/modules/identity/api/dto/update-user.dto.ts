import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, IsUrl, MaxLength } from 'class-validator';
import { Omittable } from '@app/common';

/** GitBook's `updateUserById` body: at least one of the two. */
export class UpdateUserDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 64, description: 'Full name (surrounding spaces are trimmed)' })
  @Omittable()
  @IsString()
  @MaxLength(64)
  displayName?: string;

  @ApiPropertyOptional({ format: 'uri', maxLength: 2048, description: 'An http(s) address of the photo' })
  @Omittable()
  @IsUrl({ protocols: ['http', 'https'], require_protocol: true, require_tld: false })
  @MaxLength(2048)
  photoURL?: string;
}
