/**
 * Test helper (not part of the module's API): validates documents against GitBook's published
 * contract, `components.schemas.JSONDocument` of `@gitbook/api` (0.146, the contract this server
 * implements) and of the current `@gitbook/api`.
 */
import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

/** OpenAPI 3.0's `nullable` as plain JSON Schema. */
function withoutNullable(node: unknown): unknown {
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

const ajv = new Ajv({ strict: false, allErrors: false, validateSchema: false });
addFormats(ajv);
for (const format of ['emoji', 'markdown', 'byte', 'binary', 'password', 'int32', 'int64', 'float', 'double', 'color', 'icon']) {
  if (!ajv.formats[format]) ajv.addFormat(format, true);
}
const SPECS = {
  'gitbook-0.146': '@gitbook/api/spec/openapi.json',
  'gitbook-current': 'gitbook-api-current/spec/openapi.json',
};
const validators: Array<[string, ValidateFunction]> = Object.entries(SPECS).map(([id, path]) => {
  ajv.addSchema(withoutNullable(require(path)) as object, id);
  return [id, ajv.compile({ $ref: `${id}#/components/schemas/JSONDocument` })];
});

/** The contract violations of a document, empty when it is valid under every spec. */
export function documentSchemaErrors(document: unknown): string[] {
  const errors: string[] = [];
  for (const [id, validate] of validators) {
    if (!validate(document)) {
      errors.push(...(validate.errors ?? []).slice(0, 20).map((e) => `${id}: ${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`));
    }
  }
  return errors;
}

export function expectValidDocument(document: unknown): void {
  const errors = documentSchemaErrors(document);
  if (errors.length) throw new Error(`Document violates the JSONDocument contract:\n${errors.join('\n')}\n${JSON.stringify(document, null, 2).slice(0, 4000)}`);
}
