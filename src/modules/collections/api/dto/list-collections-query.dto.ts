import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsOptional } from 'class-validator';
import { ListQueryDto } from '@app/common';

export class ListCollectionsQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ type: Boolean, default: true, description: 'false: only top-level collections' })
  @IsOptional()
  @Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value))
  @IsBoolean()
  nested?: boolean;
}
