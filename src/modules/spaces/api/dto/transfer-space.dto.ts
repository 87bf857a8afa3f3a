import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength, MinLength } from 'class-validator';

export class TransferSpaceDto {
  @ApiProperty({ description: 'Id of the target organization' })
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  organization: string;
}
