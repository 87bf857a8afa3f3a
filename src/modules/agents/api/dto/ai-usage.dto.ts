import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsISO8601, IsOptional } from 'class-validator';
import { AI_USAGE_INTERVALS } from '../../../../core/ai/ai-usage';

export class AiUsageQueryDto {
  @ApiPropertyOptional({ format: 'date-time', description: 'Inclusive start; 30 days before `to` when left out' }) @IsOptional() @IsISO8601() from?: string;
  @ApiPropertyOptional({ format: 'date-time', description: 'Exclusive end, capped at now; now when left out' }) @IsOptional() @IsISO8601() to?: string;
  @ApiPropertyOptional({ enum: AI_USAGE_INTERVALS, default: 'day', description: 'UTC calendar buckets, weeks from Monday' }) @IsOptional() @IsIn(AI_USAGE_INTERVALS) interval?: string;
}
