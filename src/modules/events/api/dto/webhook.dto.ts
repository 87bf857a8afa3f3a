import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { Omittable, RefusesEmptyBody } from '@app/common';
import { EVENT_TYPES } from '../../domain/event-types';

const URL_DESCRIPTION = 'Where deliveries are POSTed: http(s), no credentials in it; reached through the outbound policy (public addresses only unless the operator allows private ones)';
const EVENTS_DESCRIPTION = 'The events to deliver';
const SPACES_DESCRIPTION = "Only events about these spaces (ids of the organization's spaces); omit or null for every event";

const IsEventList = () => applyDecorators(IsArray(), ArrayMinSize(1), ArrayMaxSize(EVENT_TYPES.length), IsIn(EVENT_TYPES, { each: true }));
const IsSpaceFilter = () => applyDecorators(IsOptional(), IsArray(), ArrayMinSize(1), ArrayMaxSize(100), IsString({ each: true }), MaxLength(32, { each: true }));

export class CreateWebhookDto {
  @ApiProperty({ description: URL_DESCRIPTION, maxLength: 2048, example: 'https://example.com/hooks/docs' })
  @IsString()
  @MaxLength(2048)
  url: string;

  @ApiProperty({ description: EVENTS_DESCRIPTION, type: [String], enum: EVENT_TYPES, minItems: 1 })
  @IsEventList()
  events: string[];

  @ApiPropertyOptional({ description: SPACES_DESCRIPTION, type: [String], nullable: true, maxItems: 100 })
  @IsSpaceFilter()
  spaces?: string[] | null;

  @ApiPropertyOptional({ description: 'false to create it switched off', default: true })
  @Omittable()
  @IsBoolean()
  active?: boolean;
}

@RefusesEmptyBody()
export class UpdateWebhookDto {
  @ApiPropertyOptional({ description: URL_DESCRIPTION, maxLength: 2048 })
  @Omittable()
  @IsString()
  @MaxLength(2048)
  url?: string;

  @ApiPropertyOptional({ description: EVENTS_DESCRIPTION, type: [String], enum: EVENT_TYPES, minItems: 1 })
  @Omittable()
  @IsEventList()
  events?: string[];

  @ApiPropertyOptional({ description: SPACES_DESCRIPTION, type: [String], nullable: true, maxItems: 100 })
  @IsSpaceFilter()
  spaces?: string[] | null;

  @ApiPropertyOptional({ description: 'Switch it off, or on again (which also clears a disabling by the server and its failure record)' })
  @Omittable()
  @IsBoolean()
  active?: boolean;
}
