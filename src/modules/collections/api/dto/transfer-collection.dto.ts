import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';

export class TransferCollectionDto {
  @ApiProperty({ description: 'Id of the target organization' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  organization: string;
}
