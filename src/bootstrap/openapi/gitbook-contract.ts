import { Logger } from '@nestjs/common';
import type { Schema } from './validation-schema';

type Document = { paths: Record<string, Record<string, any>>; components: Record<string, Record<string, any>> };

interface Source {
  id: string;
  spec: Document;
  /** Our component name for each of this spec's schemas imported so far. */
  names: Map<string, string>;
}

/**
 * GitBook's published contract, current first, then the 0.146.0 one for operations only it describes.
 * The served document takes GitBook's success responses (and the component schemas they reference)
 * for every operation GitBook also has, so generated clients get the same types as with GitBook's.
 */
export class GitBookContract {
  private readonly sources: Source[];

  constructor(private readonly target: Document) {
    this.sources = [load('current', 'gitbook-api-current/spec/openapi.json'), load('0.146', '@gitbook/api/spec/openapi.json')].filter(
      (source): source is Source => source !== undefined,
    );
  }

  /** GitBook's operation for this method and path (without the `/v1` prefix), and which spec it is from. */
  operation(method: string, path: string): { source: Source; operation: any } | undefined {
    for (const source of this.sources) {
      const operation = source.spec.paths[path]?.[method];
      if (operation) return { source, operation };
    }
    return undefined;
  }

  /** GitBook's parameters of an operation, resolved (`name`, `in`, `description`, `schema`). */
  parameters(source: Source, operation: any): any[] {
    return (operation.parameters ?? []).map((parameter: any) => this.resolve(source, parameter));
  }

  /** GitBook's response for a status, with its schemas copied into our components. */
  response(source: Source, operation: any, status: string): any | undefined {
    const declared = operation.responses?.[status];
    if (!declared) return undefined;
    const response = structuredClone(this.resolve(source, declared));
    delete response.$ref;
    return this.importRefs(source, response);
  }

  private resolve(source: Source, node: any): any {
    let current = node;
    while (current?.$ref) current = pointer(source.spec, current.$ref);
    return current;
  }

  /** Rewrites `#/components/schemas/X` to our name for X, importing X (and what it references) once; other references are inlined. */
  private importRefs<T>(source: Source, node: T): T {
    const visit = (value: any): any => {
      if (Array.isArray(value)) return value.map(visit);
      if (!value || typeof value !== 'object') return value;
      // Headers, parameters and the like are copied in place; only schemas become shared components.
      if (typeof value.$ref === 'string' && !value.$ref.startsWith('#/components/schemas/')) return visit(structuredClone(this.resolve(source, value)));
      const out: Schema = {};
      for (const [key, child] of Object.entries(value)) {
        if (key === '$ref' && typeof child === 'string') out[key] = this.importSchemaRef(source, child);
        else if (key === 'mapping' && child && typeof child === 'object' && value.propertyName)
          out[key] = Object.fromEntries(Object.entries(child).map(([k, ref]) => [k, this.importSchemaRef(source, String(ref))]));
        else out[key] = visit(child);
      }
      return toOpenApi30(out);
    };
    return visit(node);
  }

  private importSchemaRef(source: Source, ref: string): string {
    const match = /^#\/components\/schemas\/(.+)$/.exec(ref);
    if (!match) throw new Error(`Unsupported reference in GitBook's spec: ${ref}`);
    const name = match[1];
    const known = source.names.get(name);
    if (known) return `#/components/schemas/${known}`;
    const schemas = (this.target.components.schemas ??= {});
    const original = source.spec.components.schemas[name];
    const serialized = JSON.stringify(original);
    let ours = name;
    // A name already used by one of our DTOs or by the other spec's different schema gets a suffix.
    for (let n = 2; schemas[ours] && schemas[ours]['x-gitbook-source'] !== serialized; n++) ours = `${name}_${n}`;
    source.names.set(name, ours);
    if (!schemas[ours]) {
      schemas[ours] = { 'x-gitbook-source': serialized };
      schemas[ours] = this.importRefs(source, structuredClone(original));
      schemas[ours]['x-gitbook-source'] = serialized;
    }
    return `#/components/schemas/${ours}`;
  }
}

/**
 * The current GitBook spec is OpenAPI 3.1 (`type: [X, "null"]`, `{type: "null"}` branches, `$ref` with
 * sibling keywords such as a description); the served document is 3.0, where the same things are
 * `nullable: true` and a `$ref` wrapped in `allOf` (3.0 ignores a `$ref`'s siblings, so they must not be beside it).
 */
function toOpenApi30(schema: Schema): Schema {
  // 3.0 has no `propertyNames` (the keys stay unconstrained in the document; the server still checks them)
  // and spells `const` as a one-value enum.
  delete schema.propertyNames;
  if ('const' in schema) {
    schema.enum = [schema.const];
    delete schema.const;
  }
  if (typeof schema.$ref === 'string' && Object.keys(schema).length > 1) {
    const { $ref, ...siblings } = schema;
    for (const key of Object.keys(schema)) delete schema[key];
    Object.assign(schema, siblings, { allOf: [{ $ref }] });
  }
  if (Array.isArray(schema.type)) {
    const types = schema.type.filter((type: string) => type !== 'null');
    if (types.length < schema.type.length) schema.nullable = true;
    if (types.length === 1) schema.type = types[0];
    else {
      delete schema.type;
      schema.anyOf = types.map((type: string) => ({ type }));
    }
  }
  for (const key of ['oneOf', 'anyOf']) {
    const branches = schema[key];
    if (!Array.isArray(branches)) continue;
    const kept = branches.filter((branch: Schema) => branch?.type !== 'null');
    if (kept.length === branches.length) continue;
    schema.nullable = true;
    schema[key] = kept;
  }
  return schema;
}

/** Drops the bookkeeping markers `importSchemaRef` leaves on imported schemas. */
export function dropImportMarkers(document: Document): void {
  for (const schema of Object.values(document.components.schemas ?? {})) delete schema['x-gitbook-source'];
}

function load(id: string, module: string): Source | undefined {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const spec = structuredClone(require(module)) as Document;
    return { id, spec, names: new Map() };
  } catch (error) {
    // A runtime dependency: without it the served document silently loses GitBook's answer schemas.
    new Logger('OpenAPI').error(`GitBook's contract (${module}) could not be read, so the served OpenAPI document lacks its schemas: ${(error as Error).message}`);
    return undefined;
  }
}

function pointer(document: unknown, ref: string): any {
  return ref
    .slice(2)
    .split('/')
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((node: any, key) => node?.[key], document);
}
