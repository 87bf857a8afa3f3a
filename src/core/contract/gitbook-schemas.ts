import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

/** OpenAPI 3.0's `nullable` as plain JSON Schema (GitBook's 0.146 document still uses it). */
export function withoutNullable(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutNullable);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) out[key] = withoutNullable(value);
  if (out.nullable !== true) return out;
  delete out.nullable;
  if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  if (typeof out.type === 'string') return { ...out, type: [out.type, 'null'] };
  return out.enum ? out : { anyOf: [out, { type: 'null' }] };
}

/**
 * GitBook's `PlainObject` has no `type`, so in its `oneOf` of value kinds a string or boolean
 * also matches `PlainObject` and every scalar value fails "exactly one". We read it as what it
 * means: any JSON object.
 */
export function withPlainObjects<T>(spec: T): T {
  const copy = { ...(spec as { components: { schemas: Record<string, unknown> } }) };
  copy.components = { ...copy.components, schemas: { ...copy.components.schemas, PlainObject: { type: 'object', additionalProperties: true } } };
  return copy as T;
}

/** An Ajv that reads GitBook's OpenAPI documents: their formats, no strict mode, no meta-validation. */
export function contractAjv(): Ajv {
  const ajv = new Ajv({ strict: false, allErrors: false, validateSchema: false });
  addFormats(ajv);
  for (const format of ['emoji', 'markdown', 'byte', 'binary', 'password', 'int32', 'int64', 'float', 'double', 'color', 'icon']) {
    if (!ajv.formats[format]) ajv.addFormat(format, true);
  }
  return ajv;
}

let current: Ajv | null = null;
const compiled = new Map<string, ValidateFunction>();

/**
 * A validator of one of the current GitBook API's schemas (`components.schemas.<name>`), so what
 * third parties send us (an integration's ContentKit answer) is held to the shape GitBook's own
 * renderer expects. Compiled on first use: the document is large.
 */
export function currentContractSchema(name: string): (value: unknown) => string[] {
  return (value) => {
    let validate = compiled.get(name);
    if (!validate) {
      if (!current) {
        current = contractAjv();
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        current.addSchema(withoutNullable(withPlainObjects(require('gitbook-api-current/spec/openapi.json'))) as object, 'gitbook-current');
      }
      validate = current.compile({ $ref: `gitbook-current#/components/schemas/${name}` });
      compiled.set(name, validate);
    }
    if (validate(value)) return [];
    return (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '/'} ${e.message}`);
  };
}
