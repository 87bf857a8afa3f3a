import { ApiProperty } from '@nestjs/swagger';
import { IsDefined } from 'class-validator';

export class RenameConversationDto {
  @ApiProperty({ type: String, minLength: 1, maxLength: 200, description: 'The new title of the conversation' }) @IsDefined() title: unknown;
}

export class ConversationMessageDto {
  @ApiProperty({
    type: 'array',
    minItems: 1,
    maxItems: 50,
    items: { type: 'object', required: ['role', 'content'], properties: { role: { type: 'string', enum: ['user', 'assistant', 'developer'] }, content: { oneOf: [{ type: 'string', maxLength: 2048 }, { type: 'object', additionalProperties: true }] } } },
    description: 'Messages; the last user message is the question (the conversation keeps its own history)',
  })
  @IsDefined()
  input: unknown;
}
