/**
 * What a reader needs of a processed spec to read it as an API reference: its title and, per
 * operation, method, path, summary, parameters, request body and responses, schemas shown by
 * name or as a short outline. Pure: works on the bundled document (internal `$ref`s).
 */
export interface ReferenceModel {
  title: string;
  version?: string;
  description?: string;
  /** The tags the document declares (`tags`), in its order: names and descriptions (markdown). */
  tags: Array<{ name: string; description?: string }>;
  /** The reusable schemas (`components.schemas`, Swagger 2.0's `definitions`), in the document's order. */
  schemas: ReferenceSchema[];
  operations: ReferenceOperation[];
}

/** A reusable schema as a models page shows it: its type and, for objects, its properties. */
export interface ReferenceSchema {
  name: string;
  type: string;
  description?: string;
  properties: Array<{ name: string; type: string; required: boolean; description?: string }>;
}

export interface ReferenceOperation {
  method: string;
  path: string;
  id: string;
  summary?: string;
  description?: string;
  tags: string[];
  deprecated: boolean;
  parameters: Array<{ name: string; in: string; required: boolean; type: string; description?: string }>;
  requestBody?: { required: boolean; contents: Array<{ mediaType: string; type: string; example?: string }> };
  responses: Array<{ status: string; description?: string; contents: Array<{ mediaType: string; type: string; example?: string }> }>;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
/** Bounds what one reference shows, whatever the spec's size. */
const MAX_OPERATIONS = 2000;
const MAX_EXAMPLE = 2000;
const MAX_PROPERTIES = 200;

type Json = Record<string, any>;

export function referenceModel(document: Json): ReferenceModel {
  const info = (document.info ?? {}) as Json;
  const operations: ReferenceOperation[] = [];
  for (const [path, item] of Object.entries((document.paths ?? {}) as Json)) {
    const pathItem = resolve(document, item) as Json;
    for (const method of METHODS) {
      const operation = pathItem?.[method] && (resolve(document, pathItem[method]) as Json);
      if (!operation || operations.length >= MAX_OPERATIONS) continue;
      const parameters = [...asArray(pathItem.parameters), ...asArray(operation.parameters)].map((p) => resolve(document, p) as Json);
      operations.push({
        method: method.toUpperCase(),
        path,
        id: String(operation.operationId ?? `${method}-${path}`),
        summary: text(operation.summary),
        description: text(operation.description),
        tags: asArray(operation.tags).map(String),
        deprecated: operation.deprecated === true,
        parameters: parameters.map((p) => ({
          name: String(p.name ?? ''),
          in: String(p.in ?? ''),
          required: p.required === true,
          type: typeName(document, p.schema ?? p),
          description: text(p.description),
        })),
        requestBody: requestBodyOf(document, operation),
        responses: Object.entries((operation.responses ?? {}) as Json).map(([status, value]) => {
          const response = resolve(document, value) as Json;
          return { status, description: text(response?.description), contents: contentsOf(document, response?.content ?? (response?.schema ? { 'application/json': { schema: response.schema } } : {})) };
        }),
      });
    }
  }
  const tags = asArray(document.tags)
    .filter((tag): tag is Json => !!tag && typeof tag === 'object' && typeof (tag as Json).name === 'string')
    .slice(0, MAX_OPERATIONS)
    .map((tag) => ({ name: tag.name as string, ...(text(tag.description) ? { description: text(tag.description) } : {}) }));
  const schemas = Object.entries(((document.components as Json | undefined)?.schemas ?? document.definitions ?? {}) as Json)
    .slice(0, MAX_OPERATIONS)
    .map(([name, value]) => schemaOf(document, name, value));
  return { title: text(info.title) ?? 'API reference', version: text(info.version), description: text(info.description), tags, schemas, operations };
}

function schemaOf(document: Json, name: string, value: unknown): ReferenceSchema {
  const schema = (resolve(document, value) ?? {}) as Json;
  const required = new Set(asArray(schema.required).map(String));
  const properties = Object.entries((schema.properties ?? {}) as Json)
    .slice(0, MAX_PROPERTIES)
    .map(([property, definition]) => ({
      name: property,
      type: typeName(document, definition),
      required: required.has(property),
      ...(text((definition as Json | undefined)?.description) ? { description: text((definition as Json).description) } : {}),
    }));
  return { name, type: typeName(document, { ...schema, $ref: undefined }), ...(text(schema.description) ? { description: text(schema.description) } : {}), properties };
}

function requestBodyOf(document: Json, operation: Json): ReferenceOperation['requestBody'] {
  if (operation.requestBody) {
    const body = resolve(document, operation.requestBody) as Json;
    return { required: body?.required === true, contents: contentsOf(document, body?.content ?? {}) };
  }
  // Swagger 2.0: a `body` parameter
  const bodyParameter = asArray(operation.parameters).map((p) => resolve(document, p) as Json).find((p) => p?.in === 'body');
  return bodyParameter ? { required: bodyParameter.required === true, contents: contentsOf(document, { 'application/json': { schema: bodyParameter.schema } }) } : undefined;
}

function contentsOf(document: Json, content: Json) {
  return Object.entries(content ?? {}).map(([mediaType, value]) => {
    const media = (value ?? {}) as Json;
    const example = media.example ?? Object.values((media.examples ?? {}) as Json).map((e) => (resolve(document, e) as Json)?.value)[0];
    return { mediaType, type: typeName(document, media.schema), ...(example !== undefined ? { example: clip(JSON.stringify(example, null, 2)) } : {}) };
  });
}

/** `Pet`, `array of Pet`, `string (uuid)`, `object`... */
function typeName(document: Json, schema: unknown, depth = 0): string {
  if (!schema || typeof schema !== 'object' || depth > 5) return 'any';
  const s = schema as Json;
  if (typeof s.$ref === 'string') return s.$ref.split('/').pop() ?? 'object';
  if (s.type === 'array') return `array of ${typeName(document, s.items, depth + 1)}`;
  for (const key of ['oneOf', 'anyOf', 'allOf']) {
    if (Array.isArray(s[key])) return s[key].map((branch: unknown) => typeName(document, branch, depth + 1)).join(key === 'allOf' ? ' & ' : ' | ');
  }
  const type = Array.isArray(s.type) ? s.type.join(' | ') : (s.type ?? (s.properties ? 'object' : 'any'));
  return s.format ? `${type} (${s.format})` : String(type);
}

/** Follows local `$ref`s (`#/...`), a bounded number of times. */
function resolve(document: Json, value: unknown): unknown {
  let current = value;
  for (let hops = 0; hops < 20 && current && typeof current === 'object' && typeof (current as Json).$ref === 'string'; hops++) {
    const ref = (current as Json).$ref as string;
    if (!ref.startsWith('#/')) return current;
    current = ref
      .slice(2)
      .split('/')
      .map((part) => decodeURIComponent(part.replace(/~1/g, '/').replace(/~0/g, '~')))
      .reduce<unknown>((node, part) => (node as Json | undefined)?.[part], document);
  }
  return current;
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

function clip(value: string): string {
  return value.length > MAX_EXAMPLE ? `${value.slice(0, MAX_EXAMPLE)}\n…` : value;
}
