import { ApiProperty } from '@nestjs/swagger';
import { IsObject } from 'class-validator';

/** PUT /orgs/{id}/agent-instructions. The document itself is validated by the domain (rich-text.ts). */
export class PutAgentInstructionsDto {
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'Rich-text document {object: "document", data, nodes}: paragraphs, headings, lists, quotes, hints, code, math, dividers',
  })
  @IsObject()
  instructions: Record<string, unknown>;
}
