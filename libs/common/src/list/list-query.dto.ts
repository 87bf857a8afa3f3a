import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, PageRequest } from './list-envelope';

/** `page` and `limit`, accepted by every list endpoint. */
export class ListQueryDto {
  @ApiPropertyOptional({ description: 'Opaque cursor from the `next.page` of the previous response' })
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  page?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE_SIZE)
  limit?: number;

  toPageRequest(): PageRequest {
    return { page: this.page, limit: this.limit ?? DEFAULT_PAGE_SIZE };
  }
}
