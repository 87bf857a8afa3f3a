import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsObject, IsString, Length, MaxLength } from 'class-validator';
import { Omittable } from '@app/common';

export class CreateOrganizationDto {
  @ApiProperty({ minLength: 2, maxLength: 255 })
  @IsString()
  @Length(2, 255)
  title: string;

  @ApiPropertyOptional({ type: [String], description: 'Domains whose verified users may join' })
  @Omittable()
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  @MaxLength(253, { each: true })
  emailDomains?: string[];

  @ApiPropertyOptional({ description: 'Accepted for compatibility with GitBook clients; not used' })
  @Omittable()
  @IsObject()
  onboardingPreferences?: Record<string, unknown>;
}
