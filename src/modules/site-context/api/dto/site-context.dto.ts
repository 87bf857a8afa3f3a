import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow, IsBooleanString, IsDefined, IsIn, IsISO8601, IsOptional, IsString, MaxLength } from 'class-validator';
import { InvalidError, ListQueryDto } from '@app/common';
import { FINDING_STATUSES, FINDING_TYPES, SEVERITIES } from '../../domain/finding-fixes';
import { RECORD_TYPES } from '../../domain/context-record';
import { BUILTIN_CONNECTORS } from '../../domain/context-connection';
import { FINDING_ORDERS, FindingFilters } from '../../infrastructure/findings.repository';

const SETTINGS_SCHEMA = { type: 'object', additionalProperties: true, description: "The connector's settings (GitBook's ContextConnectorSetup); credentials are stored sealed and shown as `********`" } as const;
const usageSchema = () => ({
  type: 'object' as const,
  required: ['changeRequests', 'search', 'searchBoost'],
  properties: { changeRequests: { type: 'boolean' as const }, search: { type: 'boolean' as const }, sync: { type: 'boolean' as const }, searchBoost: { type: 'string' as const, enum: ['x0.8', 'x1.0', 'x1.2'] } },
});

export class CreateContextConnectionDto {
  @ApiProperty({ oneOf: [{ type: 'string', enum: [...BUILTIN_CONNECTORS] }, { type: 'string', pattern: '^integration:[^:]+$' }], description: 'A built-in connector, or integration:<name>' }) @IsDefined() connector: unknown;
  @ApiPropertyOptional(SETTINGS_SCHEMA) @Allow() setupSettings?: unknown;
  @ApiPropertyOptional(usageSchema()) @Allow() usageSettings?: unknown;
  @ApiPropertyOptional({ type: String, maxLength: 1024 }) @Allow() filter?: unknown;
  @ApiPropertyOptional({ type: String, maxLength: 128 }) @Allow() label?: unknown;
}

export class UpdateContextConnectionDto {
  @ApiPropertyOptional({ type: String }) @Allow() connector?: unknown;
  @ApiPropertyOptional(SETTINGS_SCHEMA) @Allow() setupSettings?: unknown;
  @ApiPropertyOptional(usageSchema()) @Allow() usageSettings?: unknown;
  @ApiPropertyOptional({ type: String, maxLength: 1024 }) @Allow() filter?: unknown;
  @ApiPropertyOptional({ type: String, maxLength: 128 }) @Allow() label?: unknown;
}

export class ListRecordsDto extends ListQueryDto {
  @ApiPropertyOptional({ enum: RECORD_TYPES }) @IsOptional() @IsIn(RECORD_TYPES) type?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(128) connector?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(64) connection?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(64) topic?: string;
}

export class ListScansDto extends ListQueryDto {
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(64) topic?: string;
  @ApiPropertyOptional({ enum: ['pending', 'running', 'done', 'failed'] }) @IsOptional() @IsIn(['pending', 'running', 'done', 'failed']) status?: string;
}

export class TopicsRangeDto {
  @ApiPropertyOptional({ format: 'date-time' }) @IsOptional() @IsISO8601() from?: string;
  @ApiPropertyOptional({ format: 'date-time' }) @IsOptional() @IsISO8601() to?: string;
}

export class FindingStatsDto {
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(64) topic?: string;
  @ApiPropertyOptional({ enum: FINDING_STATUSES }) @IsOptional() @IsIn(FINDING_STATUSES) status?: string;
  @ApiPropertyOptional({ isArray: true, enum: FINDING_TYPES }) @Allow() type?: unknown;
  @ApiPropertyOptional({ enum: SEVERITIES }) @IsOptional() @IsIn(SEVERITIES) severity?: string;
  @ApiPropertyOptional({ type: Boolean }) @IsOptional() @IsBooleanString() hasChangeRequests?: string;
  @ApiPropertyOptional({ type: [String], description: '`questions`, or `connection:<id>`' }) @Allow() source?: unknown;

  filters(): FindingFilters {
    const list = (field: string, value: unknown, ok: (v: string) => boolean) => {
      if (value === undefined) return undefined;
      const values = Array.isArray(value) ? value : [value];
      if (!values.every((v) => typeof v === 'string' && ok(v))) throw new InvalidError(`${field}: not a known value`);
      return values as string[];
    };
    return {
      topic: this.topic,
      status: this.status,
      type: list('type', this.type, (v) => (FINDING_TYPES as readonly string[]).includes(v)),
      severity: this.severity,
      hasChangeRequests: this.hasChangeRequests === undefined ? undefined : this.hasChangeRequests === 'true',
      source: list('source', this.source, (v) => v === 'questions' || /^connection:.{1,64}$/.test(v)),
    };
  }
}

export class ListFindingsDto extends FindingStatsDto {
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(64) question?: string;
  @ApiPropertyOptional({ format: 'date-time' }) @IsOptional() @IsISO8601() updatedAfter?: string;
  @ApiPropertyOptional({ format: 'date-time' }) @IsOptional() @IsISO8601() updatedBefore?: string;
  @ApiPropertyOptional({ enum: Object.keys(FINDING_ORDERS), default: 'updatedAt' }) @IsOptional() @IsIn(Object.keys(FINDING_ORDERS)) orderBy?: keyof typeof FINDING_ORDERS;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(2048) page?: string;
  @ApiPropertyOptional({ minimum: 1, maximum: 1000 }) @Allow() limit?: unknown;

  findingFilters(): FindingFilters {
    return { ...this.filters(), question: this.question, updatedAfter: this.updatedAfter ? new Date(this.updatedAfter) : undefined, updatedBefore: this.updatedBefore ? new Date(this.updatedBefore) : undefined };
  }

  pageRequest() {
    return Object.assign(new ListQueryDto(), { page: this.page, limit: this.limit === undefined ? undefined : pageLimit(this.limit) }).toPageRequest();
  }
}

function pageLimit(value: unknown): number {
  const n = typeof value === 'string' && /^[0-9]{1,4}$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > 1000) throw new InvalidError('limit: 1 to 1000');
  return n;
}

export class UpdateFindingDto {
  @ApiProperty({ enum: FINDING_STATUSES }) @IsDefined() status: unknown;
}

export class UpdateTopicDto {
  @ApiProperty({ type: 'object', required: ['changeRequests'], properties: { changeRequests: { type: 'boolean' } } }) @IsDefined() usageSettings: unknown;
}
