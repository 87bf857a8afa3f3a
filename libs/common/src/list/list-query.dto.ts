import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, PageRequest } from './list-envelope';

/**
 * A query value written as plain decimal digits becomes a number; anything else (`1e3`, `0x10`,
 * ` 5`, `5.0`) stays a string, so the integer check refuses it. `Number()` would accept them all.
 */
export function decimalInteger(value: unknown): unknown {
  return typeof value === 'string' && /^[0-9]{1,9}$/.test(value) ? Number(value) : value;
}

/** `page` and `limit`, accepted by every list endpoint. */
export class ListQueryDto {
  @ApiPropertyOptional({ description: 'Opaque cursor from the `next.page` of the previous response' })
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  page?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE })
  @IsOptional()
  @Transform(({ value }) => decimalInteger(value))
  @IsInt({ message: 'limit must be a decimal integer' })
  @Min(1)
  @Max(MAX_PAGE_SIZE)
  limit?: number;

  toPageRequest(): PageRequest {
    return { page: this.page, limit: this.limit ?? DEFAULT_PAGE_SIZE };
  }
}
