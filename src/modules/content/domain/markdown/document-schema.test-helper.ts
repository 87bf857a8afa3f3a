/**
 * Test helper (not part of the module's API): validates documents against GitBook's published
 * contract, `components.schemas.JSONDocument` of `@gitbook/api` (0.146, the contract this server
 * implements) and of the current `@gitbook/api`.
 */
import type { ValidateFunction } from 'ajv';
import { contractAjv, withPlainObjects, withoutNullable } from '../../../../core/contract/gitbook-schemas';

const ajv = contractAjv();
const SPECS = {
  'gitbook-0.146': '@gitbook/api/spec/openapi.json',
  'gitbook-current': 'gitbook-api-current/spec/openapi.json',
};
const validators: Array<[string, ValidateFunction]> = Object.entries(SPECS).map(([id, path]) => {
  ajv.addSchema(withoutNullable(withPlainObjects(require(path))) as object, id);
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
