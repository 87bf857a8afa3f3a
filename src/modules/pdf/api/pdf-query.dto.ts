import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsString, MaxLength } from 'class-validator';
import { Omittable } from '@app/common';

export class PdfQueryDto {
  @ApiPropertyOptional({ description: 'Only the page given by `page`' })
  @Omittable()
  @Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value))
  @IsBoolean()
  only?: boolean;

  @ApiPropertyOptional({ description: 'A page id: with `only`, the PDF holds that page alone' })
  @Omittable()
  @IsString()
  @MaxLength(64)
  page?: string;
}
