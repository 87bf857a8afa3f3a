import Ajv from 'ajv';
import { InvalidError } from '@app/common';

/**
 * A site's adaptive schema: the claims its visitors may carry, as a JSON Schema draft-07 object
 * (GitBook's SiteAdaptiveJSONSchema). Checked in two steps with Ajv: the schema must compile as
 * draft-07, and it must have GitBook's shape (an object of described claim properties, an
 * optional `unsigned` object of the same, no additional properties).
 */
const ajv = new Ajv({ allErrors: true, strict: false });

const CLAIM = {
  type: 'object',
  required: ['type', 'description'],
  properties: {
    type: { enum: ['boolean', 'string', 'number', 'array', 'object'] },
    description: { type: 'string' },
  },
};

const SHAPE = {
  type: 'object',
  required: ['type', 'properties', 'additionalProperties'],
  properties: {
    $schema: { const: 'http://json-schema.org/draft-07/schema#' },
    type: { const: 'object' },
    additionalProperties: { const: false },
    properties: {
      type: 'object',
      properties: {
        unsigned: {
          type: 'object',
          required: ['type', 'properties', 'additionalProperties'],
          properties: {
            type: { const: 'object' },
            description: { type: 'string' },
            additionalProperties: { const: false },
            properties: { type: 'object', additionalProperties: CLAIM },
          },
        },
      },
      additionalProperties: CLAIM,
    },
  },
};

const checkShape = ajv.compile(SHAPE);

export interface ClaimProperty {
  type: string;
  description?: string;
  enum?: unknown[];
}

export function assertAdaptiveSchema(value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new InvalidError('jsonSchema: must be an object');
  if (JSON.stringify(value).length > 100_000) throw new InvalidError('jsonSchema: at most 100 kB');
  if (!ajv.validateSchema(value)) throw new InvalidError(`jsonSchema: not a valid JSON Schema (draft-07): ${ajv.errorsText(ajv.errors, { dataVar: 'jsonSchema' })}`);
  if (!checkShape(value)) throw new InvalidError(`jsonSchema: ${ajv.errorsText(checkShape.errors, { dataVar: 'jsonSchema' })}`);
  try {
    ajv.compile(value);
  } catch (error) {
    throw new InvalidError(`jsonSchema: ${(error as Error).message.slice(0, 300)}`);
  }
  return value as Record<string, unknown>;
}

/** Example conditions for each claim of the schema, as the editor offers them. */
export function templateConditions(schema: Record<string, unknown>): Array<{ description: string; condition: string }> {
  const properties = (schema.properties ?? {}) as Record<string, ClaimProperty & { properties?: Record<string, ClaimProperty> }>;
  const out: Array<{ description: string; condition: string }> = [];
  for (const [name, property] of Object.entries(properties)) {
    if (name === 'unsigned') {
      for (const [claim, inner] of Object.entries(property.properties ?? {})) out.push(...conditionsFor(`visitor.claims.unsigned.${claim}`, inner));
    } else {
      out.push(...conditionsFor(`visitor.claims.${name}`, property));
    }
  }
  return out;
}

function conditionsFor(path: string, property: ClaimProperty): Array<{ description: string; condition: string }> {
  const about = property.description ?? path;
  switch (property.type) {
    case 'boolean':
      return [{ description: about, condition: `${path} == true` }];
    case 'string':
      if (Array.isArray(property.enum) && property.enum.length) {
        return property.enum.filter((v) => typeof v === 'string').map((v) => ({ description: `${about}: ${v}`, condition: `${path} == ${JSON.stringify(v)}` }));
      }
      return [{ description: about, condition: `${path} == "value"` }];
    case 'number':
      return [{ description: about, condition: `${path} > 0` }];
    case 'array':
      return [{ description: about, condition: `"value" in ${path}` }];
    default:
      return [{ description: about, condition: `${path} != null` }];
  }
}
