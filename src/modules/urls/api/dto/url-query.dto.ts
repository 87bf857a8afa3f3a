import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { MAX_URL_LENGTH } from '../../application/content-by-url.service';

export class UrlQueryDto {
  @ApiProperty({ description: 'The address to resolve (absolute http or https URL)', format: 'uri', maxLength: MAX_URL_LENGTH })
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_URL_LENGTH)
  url: string;
}
