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
  /** OpenAPI 3.1 `webhooks`: requests the API sends, each named (`path` holds the name). */
  webhooks: ReferenceOperation[];
}

/** A property of an object schema, as a table row shows it. */
export interface ReferenceField {
  name: string;
  type: string;
  required: boolean;
  description?: string;
}

/** A body in one media type: its type, its fields when it is an object, and an example. */
export interface ReferenceContent {
  mediaType: string;
  type: string;
  fields?: ReferenceField[];
  example?: string;
}

/** A reusable schema as a models page shows it: its type and, for objects, its properties. */
export interface ReferenceSchema {
  name: string;
  type: string;
  description?: string;
  properties: ReferenceField[];
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
  requestBody?: { required: boolean; contents: ReferenceContent[] };
  responses: Array<{ status: string; description?: string; contents: ReferenceContent[] }>;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
/** Bounds what one reference shows, whatever the spec's size. */
const MAX_OPERATIONS = 2000;
const MAX_EXAMPLE = 2000;
const MAX_PROPERTIES = 200;

type Json = Record<string, any>;

export function referenceModel(document: Json): ReferenceModel {
  const info = (document.info ?? {}) as Json;
  const tags = asArray(document.tags)
    .filter((tag): tag is Json => !!tag && typeof tag === 'object' && typeof (tag as Json).name === 'string')
    .slice(0, MAX_OPERATIONS)
    .map((tag) => ({ name: tag.name as string, ...(text(tag.description) ? { description: text(tag.description) } : {}) }));
  const schemas = Object.entries(((document.components as Json | undefined)?.schemas ?? document.definitions ?? {}) as Json)
    .slice(0, MAX_OPERATIONS)
    .map(([name, value]) => schemaOf(document, name, value));
  return {
    title: text(info.title) ?? 'API reference',
    version: text(info.version),
    description: text(info.description),
    tags,
    schemas,
    operations: operationsOf(document, (document.paths ?? {}) as Json),
    webhooks: operationsOf(document, (document.webhooks ?? {}) as Json),
  };
}

/** The operations of a paths object (or of 3.1 `webhooks`, keyed by name), in the document's order. */
function operationsOf(document: Json, paths: Json): ReferenceOperation[] {
  const operations: ReferenceOperation[] = [];
  for (const [path, item] of Object.entries(paths)) {
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
  return operations;
}

function schemaOf(document: Json, name: string, value: unknown): ReferenceSchema {
  const schema = (resolve(document, value) ?? {}) as Json;
  return { name, type: typeName(document, { ...schema, $ref: undefined }), ...(text(schema.description) ? { description: text(schema.description) } : {}), properties: fieldsOf(document, schema) };
}

/** The properties of an object schema, those of its `allOf` parts merged in; none for other schemas. */
function fieldsOf(document: Json, value: unknown, depth = 0): ReferenceField[] {
  const schema = (resolve(document, value) ?? {}) as Json;
  if (depth > 5 || typeof schema !== 'object') return [];
  const merged = asArray(schema.allOf).flatMap((part) => fieldsOf(document, part, depth + 1));
  const required = new Set(asArray(schema.required).map(String));
  const own = Object.entries((schema.properties ?? {}) as Json).map(([property, definition]) => ({
    name: property,
    type: typeName(document, definition),
    required: required.has(property),
    ...(text((resolve(document, definition) as Json | undefined)?.description) ? { description: text((resolve(document, definition) as Json).description) } : {}),
  }));
  const byName = new Map([...merged, ...own].map((field) => [field.name, field]));
  return [...byName.values()].slice(0, MAX_PROPERTIES);
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
    const fields = fieldsOf(document, media.schema);
    return {
      mediaType,
      type: typeName(document, media.schema),
      ...(fields.length ? { fields } : {}),
      ...(example !== undefined ? { example: clip(JSON.stringify(example, null, 2)) } : {}),
    };
  });
}

/** `Pet`, `array of Pet`, `string (uuid)`, `object`... */
function typeName(document: Json, schema: unknown, depth = 0): string {
  if (!schema || typeof schema !== 'object' || depth > 5) return 'any';
  const s = schema as Json;
  if (typeof s.$ref === 'string') {
    // A reusable schema is named by its name; anything else (an external file's schema, bundled where it was first
    // used: `#/paths/.../schema`) by its title, else by what it is.
    const named = /^#\/(?:components\/schemas|definitions)\/([^/]+)$/.exec(s.$ref);
    if (named) return decodeURIComponent(named[1].replace(/~1/g, '/').replace(/~0/g, '~'));
    const target = resolve(document, s) as Json | undefined;
    if (!target || target === s) return 'object';
    return text(target.title) ?? typeName(document, target, depth + 1);
  }
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
