import Ajv from 'ajv';
import { InvalidError } from '@app/common';
import type { ConfigurationSchema } from './integration-manifest';

const ajv = new Ajv({ allErrors: true, strict: false });
const compiled = new WeakMap<object, ReturnType<typeof ajv.compile>>();

/** The manifest's configuration schema as a JSON Schema for the stored object (buttons hold no value). */
function jsonSchemaOf(schema: ConfigurationSchema): object | null {
  if (!('properties' in schema)) return null;
  const properties: Record<string, object> = {};
  for (const [name, property] of Object.entries(schema.properties)) {
    if (property.type === 'button') continue;
    properties[name] = { type: property.type, ...(Array.isArray(property.enum) ? { enum: property.enum } : {}) };
  }
  return { type: 'object', properties, required: (schema.required ?? []).filter((name) => name in properties), additionalProperties: false };
}

/**
 * A configuration sent for an installation (account, space or site), checked against what the
 * integration declared for that level: its properties, their types and enums, the required ones.
 * A level the integration declares nothing for takes only an empty configuration; one declared as
 * a ContentKit component takes any object (the integration's own screen checks it).
 */
export function validateConfiguration(level: 'account' | 'space' | 'site', schema: ConfigurationSchema | undefined, value: unknown): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new InvalidError(`The ${level} configuration must be an object`);
  if (JSON.stringify(value).length > 64 * 1024) throw new InvalidError(`The ${level} configuration is larger than 64 KB`);
  if (!schema) {
    if (Object.keys(value).length > 0) throw new InvalidError(`This integration takes no ${level} configuration`);
    return {};
  }
  const json = jsonSchemaOf(schema);
  if (!json) return value as Record<string, unknown>;
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(json);
    compiled.set(schema, validate);
  }
  if (!validate(value)) {
    const problems = (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '/'} ${e.message}${e.params && 'additionalProperty' in e.params ? ` (${String(e.params.additionalProperty)})` : ''}`);
    throw new InvalidError(`Invalid ${level} configuration: ${problems.join('; ')}`);
  }
  return value as Record<string, unknown>;
}

/** The defaults the schema declares, for a new installation's configuration. */
export function defaultConfiguration(schema: ConfigurationSchema | undefined): Record<string, unknown> {
  if (!schema || !('properties' in schema)) return {};
  const out: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(schema.properties)) if (property.default !== undefined) out[name] = property.default;
  return out;
}
