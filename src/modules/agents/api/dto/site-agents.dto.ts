import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow, IsDefined } from 'class-validator';
import { FEEDBACK_CATEGORIES, FEEDBACK_SEVERITIES } from '../../domain/agent-feedback';
import { FINDING_CHANGE_REQUESTS, SCAN_TOPICS, TONES } from '../../domain/site-agent-settings';


export class UpdateSiteAgentSettingsDto {
  @ApiProperty({ type: 'object', required: ['topics'], properties: { topics: { type: 'string', enum: [...SCAN_TOPICS] } }, description: 'Whether scans group records into topics and findings' })
  @IsDefined()
  scans: unknown;

  @ApiProperty({ type: 'object', required: ['changeRequests'], properties: { changeRequests: { type: 'string', enum: [...FINDING_CHANGE_REQUESTS] } }, description: 'When a finding gets a change request drafted' })
  @IsDefined()
  findings: unknown;

  @ApiProperty({ type: 'object', required: ['customInstructions'], properties: { customInstructions: { type: 'object', required: ['object', 'nodes'], properties: { object: { type: 'string', enum: ['document'] }, data: { type: 'object', additionalProperties: true }, nodes: { type: 'array', items: { type: 'object', additionalProperties: true } } } } }, description: "The editing agent's instructions for this site (a document, at most 64 KB)" })
  @IsDefined()
  editing: unknown;

  @ApiPropertyOptional({
    type: 'object',
    properties: {
      enabled: { type: 'boolean', description: "Off: the site's Ask answers 403 and reader pages show no Ask box" },
      tone: { type: 'string', enum: [...TONES] },
      instructions: { type: 'string', maxLength: 2000, description: 'Told to the model with every question' },
      siteSpaces: { type: 'array', nullable: true, items: { type: 'string' }, description: 'The site spaces Ask draws on, each one of this site (400 otherwise); null for all' },
    },
    description: "Our addition to GitBook's settings: the site assistant. Fields left out keep their values.",
  })
  @Allow()
  assistant?: unknown;
}

export class AgentFeedbackDto {
  @ApiPropertyOptional({
    type: 'object',
    properties: { model: { type: 'string', maxLength: 100 }, userAgent: { type: 'string', maxLength: 512 }, correlationId: { type: 'string', maxLength: 100 }, onDemand: { type: 'boolean', default: false } },
    description: 'The agent that reports (never the end user it acts for)',
  })
  @Allow()
  reportedBy?: unknown;

  @ApiProperty({
    oneOf: [
      { type: 'object', required: ['kind', 'toolName'], properties: { kind: { type: 'string', enum: ['mcp-tool'] }, toolName: { type: 'string', maxLength: 200 }, target: { type: 'string', maxLength: 200 } } },
      { type: 'object', required: ['kind', 'command'], properties: { kind: { type: 'string', enum: ['cli-command'] }, command: { type: 'string', maxLength: 200 }, flags: { type: 'array', maxItems: 50, items: { type: 'string' } } } },
      { type: 'object', required: ['kind', 'method', 'path'], properties: { kind: { type: 'string', enum: ['api-endpoint'] }, method: { type: 'string', enum: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] }, path: { type: 'string', maxLength: 500 } } },
      { type: 'object', required: ['kind', 'url'], properties: { kind: { type: 'string', enum: ['documentation'] }, url: { type: 'string', format: 'uri' } } },
      { type: 'object', required: ['kind'], properties: { kind: { type: 'string', enum: ['generic'] } } },
    ],
    description: "What the feedback is about; `kind` decides its other fields (GitBook's AgentFeedbackSubject)",
  })
  @IsDefined()
  subject: unknown;

  @ApiProperty({
    type: 'object',
    required: ['category', 'summary'],
    properties: {
      category: { type: 'string', enum: [...FEEDBACK_CATEGORIES] },
      severity: { type: 'string', enum: [...FEEDBACK_SEVERITIES] },
      goal: { type: 'string', maxLength: 1024 },
      summary: { type: 'string', minLength: 1, maxLength: 256 },
      detail: { type: 'string', maxLength: 4096 },
      workaround: { type: 'string', maxLength: 2048 },
      metrics: { type: 'object', additionalProperties: false, properties: { callCount: { type: 'integer', minimum: 0 }, successCount: { type: 'integer', minimum: 0 }, retryCount: { type: 'integer', minimum: 0 } } },
    },
  })
  @IsDefined()
  feedback: unknown;
}
