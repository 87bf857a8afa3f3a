import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow, IsDefined } from 'class-validator';

export class AiResponseDto {
  @ApiPropertyOptional({ description: 'The response (of this site) the question follows; its question helps find what this one means' }) @Allow() previousResponseId?: unknown;

  @ApiProperty({
    type: 'array',
    minItems: 1,
    maxItems: 50,
    items: { type: 'object', required: ['role', 'content'], properties: { role: { type: 'string', enum: ['user', 'assistant', 'developer'] }, content: { oneOf: [{ type: 'string', maxLength: 2048 }, { type: 'object', additionalProperties: true, description: 'A document' }] } } },
    description: "The conversation's messages; the last user message is the question",
  })
  @IsDefined()
  input: unknown;

  @ApiPropertyOptional({ enum: ['fast', 'reasoning-low', 'reasoning-medium', 'reasoning-high'], description: 'Accepted; the server has one model (AI_MODEL)' }) @Allow() model?: unknown;
  @ApiPropertyOptional({ type: 'array', items: { type: 'object', additionalProperties: true }, description: 'Accepted; client-side tools are not called' }) @Allow() tools?: unknown;
  @ApiPropertyOptional({ type: Object, description: 'Accepted; no tool call is ever pending' }) @Allow() toolCall?: unknown;
  @ApiPropertyOptional({ type: Object, description: "The reader's insights session (`visitorId`, `sessionId`), recorded with the answer" }) @Allow() session?: unknown;
  @ApiPropertyOptional({ type: 'object', required: ['type'], properties: { type: { type: 'string', enum: ['site', 'embed', 'api'] } }, description: 'Where the question was asked (default `api`)' }) @Allow() channel?: unknown;
}
