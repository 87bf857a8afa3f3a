import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow, IsDefined } from 'class-validator';

export class CreateSiteMcpServerDto {
  @ApiProperty({ minLength: 1, maxLength: 100 }) @IsDefined() name: unknown;
  @ApiProperty({ format: 'uri', maxLength: 2048, description: 'An absolute http(s) address without credentials' }) @IsDefined() url: unknown;
  @ApiPropertyOptional({ enum: ['sse', 'http'], default: 'sse' }) @Allow() transport?: unknown;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string', minLength: 1, maxLength: 512 }, description: 'At most 20 headers sent with every request to the server' }) @IsDefined() headers: unknown;
  @ApiPropertyOptional({ nullable: true, maxLength: 1024, description: "An adaptive-content condition on the site's visitor" }) @Allow() condition?: unknown;
}

export class UpdateSiteMcpServerDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 100 }) @Allow() name?: unknown;
  @ApiPropertyOptional({ format: 'uri', maxLength: 2048 }) @Allow() url?: unknown;
  @ApiPropertyOptional({ enum: ['sse', 'http'] }) @Allow() transport?: unknown;
  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' }, description: 'Replaces every header' }) @Allow() headers?: unknown;
  @ApiPropertyOptional({ nullable: true, maxLength: 1024, description: 'null removes the condition' }) @Allow() condition?: unknown;
}
