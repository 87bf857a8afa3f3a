import Ajv, { ErrorObject, ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { EVENTS_CONTRACT } from '../../../src/modules/events/api/event.schemas';
import { AGENT_CONVERSATIONS_CONTRACT } from '../../../src/modules/agent-conversations/api/agent-conversation.schemas';
import { INSIGHTS_CONTRACT } from '../../../src/modules/insights/api/insights.schemas';
import { SITE_CONTEXT_CONTRACT } from '../../../src/modules/site-context/api/site-context.schemas';
import { withPlainObjects } from '../../../src/core/contract/gitbook-schemas';

/**
 * Checks our responses against GitBook's published OpenAPI contract: `@gitbook/api@0.146.0`
 * and, where it describes the operation too, the current `@gitbook/api` (both must hold); the
 * current one alone for operations only newer versions describe; then our own declared schemas
 * for the operations GitBook has no equivalent of.
 */
type Spec = { paths: Record<string, Record<string, Operation>>; components: { responses?: Record<string, unknown> } };
type Operation = { operationId?: string; responses: Record<string, { $ref?: string; content?: Record<string, unknown> }> };

const SPECS: { id: string; spec: Spec }[] = [
  { id: 'gitbook-0.146', spec: withSatisfiableOneOfs(toJsonSchemaDialect(withPlainObjects(require('@gitbook/api/spec/openapi.json')))) },
  { id: 'gitbook-current', spec: withSatisfiableOneOfs(toJsonSchemaDialect(withPlainObjects(require('gitbook-api-current/spec/openapi.json')))) },
  // Operations GitBook does not have (webhooks, audit log, insights shortcuts), checked against the schemas we serve for them.
  { id: 'ours', spec: toJsonSchemaDialect({ paths: { ...EVENTS_CONTRACT.paths, ...INSIGHTS_CONTRACT.paths, ...AGENT_CONVERSATIONS_CONTRACT.paths, ...SITE_CONTEXT_CONTRACT.paths }, components: {} } as unknown as Spec) },
];

/**
 * (`PlainObject`, untyped, makes every scalar value of a `oneOf` match twice: see withPlainObjects.)
 * Two of GitBook's `oneOf`s can never hold, for GitBook's own responses too; only here are they
 * read as `anyOf` (at least one branch must still match):
 * - a `page_edited` change's `attributes` match the document, group or link attribute schemas,
 *   none of which forbids other properties, and all accept `title` alone;
 * - a document page (and a reusable content) is either computed (`computed` and `computedSeed`
 *   required) or not (`documentId` optional): the second branch requires nothing, so a computed
 *   page matches both.
 */
function withSatisfiableOneOfs<T>(document: T): T {
  const schemas = (document as { components: { schemas: Record<string, any> } }).components.schemas;
  const loosen = (node: any) => {
    if (!node?.oneOf) return;
    node.anyOf = node.oneOf;
    delete node.oneOf;
  };
  loosen(schemas.RevisionSemanticChangePageEdited?.properties?.attributes);
  for (const name of ['RevisionPageDocument', 'RevisionReusableContent']) {
    const computedOrNot = (schemas[name]?.allOf ?? []).find((part: any) => part.oneOf?.some((branch: any) => branch.properties?.computedSeed));
    loosen(computedOrNot);
  }
  return document;
}

/** OpenAPI 3.0's `nullable` as plain JSON Schema, which Ajv validates everywhere it appears. */
function toJsonSchemaDialect<T>(document: T): T {
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (!node || typeof node !== 'object') return node;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) out[key] = visit(value);
    if (out.nullable !== true) return out;
    delete out.nullable;
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
    if (typeof out.type === 'string') {
      out.type = [out.type, 'null'];
      return out;
    }
    if (out.enum) return out;
    return { anyOf: [out, { type: 'null' }] };
  };
  return visit(JSON.parse(JSON.stringify(document))) as T;
}

const ERROR_SCHEMA = {
  type: 'object',
  required: ['error'],
  additionalProperties: false,
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      additionalProperties: false,
      properties: { code: { type: 'integer' }, message: { type: 'string', minLength: 1 } },
    },
  },
};

const ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false });
addFormats(ajv);
for (const format of ['icon', 'emoji', 'markdown', 'byte', 'binary', 'password', 'int32', 'int64', 'float', 'double', 'color']) {
  if (!ajv.formats[format]) ajv.addFormat(format, true);
}
for (const { id, spec } of SPECS) ajv.addSchema(spec as object, id);
const validateError = ajv.compile(ERROR_SCHEMA);
const compiled = new Map<string, ValidateFunction>();

interface Match {
  method: string;
  specId: string;
  spec: Spec;
  template: string;
  operation: Operation;
}

function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

function findOperation(method: string, path: string, specs = SPECS): Match | undefined {
  const segments = path.split('/').filter(Boolean);
  for (const { id, spec } of specs) {
    let best: { match: Match; literals: number } | undefined;
    for (const [template, item] of Object.entries(spec.paths)) {
      const operation = item[method.toLowerCase()];
      if (!operation) continue;
      const parts = template.split('/').filter(Boolean);
      // `{pagePath}` is a page path: GitBook's clients send its slashes as they are.
      const restParam = parts[parts.length - 1] === '{pagePath}';
      if (restParam ? segments.length < parts.length : parts.length !== segments.length) continue;
      let literals = 0;
      const ok = parts.every((part, i) => {
        if (part.startsWith('{')) return true;
        literals++;
        return part === segments[i];
      });
      if (ok && (!best || literals > best.literals)) best = { match: { method: method.toLowerCase(), specId: id, spec, template, operation }, literals };
    }
    if (best) return best.match;
  }
  return undefined;
}

function schemaValidator(match: Match, status: string): ValidateFunction | null | undefined {
  const response = match.operation.responses[status];
  if (!response) return undefined;
  let pointer = `#/paths/${escapePointer(match.template)}/${match.method}/responses/${status}`;
  let target: { $ref?: string; content?: Record<string, unknown> } = response;
  if (response.$ref) {
    pointer = response.$ref;
    target = response.$ref.split('/').slice(1).reduce((node: any, key) => node[key], match.spec);
  }
  if (!target.content) return null;
  const mediaType = Object.keys(target.content).find((t) => t.includes('json'));
  if (!mediaType) return null;
  return compileRef(`${match.specId}${pointer}/content/${escapePointer(mediaType)}/schema`);
}

function compileRef(ref: string): ValidateFunction {
  let fn = compiled.get(ref);
  if (!fn) {
    fn = ajv.compile({ $ref: ref });
    compiled.set(ref, fn);
  }
  return fn;
}

export class ContractViolation extends Error {}

/** Throws a ContractViolation when a /v1 response does not match the contract. */
export function checkContract(method: string, url: string, status: number, body: unknown): void {
  const path = url.split('?')[0];
  if (!path.startsWith('/v1/')) return;
  const apiPath = path.slice(3);
  const where = `${method.toUpperCase()} ${apiPath} -> ${status}`;
  if (status >= 400) {
    if (!validateError(body) || (body as { error: { code: number } }).error.code !== status) {
      throw new ContractViolation(`${where}: error body must be {"error":{"code":${status},"message"}}, got ${JSON.stringify(body)}`);
    }
    return;
  }
  const match = findOperation(method, apiPath);
  if (!match) throw new ContractViolation(`${where}: no operation in GitBook's contract matches this request`);
  const validator = schemaValidator(match, String(status));
  if (validator === undefined) {
    const listed = Object.keys(match.operation.responses).join(', ');
    throw new ContractViolation(`${where}: status ${status} is not one of the contract's (${listed})`);
  }
  if (validator === null) {
    const empty = body === undefined || body === '' || (typeof body === 'object' && body !== null && Object.keys(body).length === 0);
    if (!empty) throw new ContractViolation(`${where}: the contract has no body for this status, got ${JSON.stringify(body)}`);
    return;
  }
  body = asDocumented(match.operation.operationId, body, where);
  if (!validator(body) && !(WIDENED_SINCE_0146.has(match.operation.operationId ?? '') && holdsCurrent(method, apiPath, status, body))) {
    throw new ContractViolation(`${where} (${match.specId} ${match.template}) violates the contract:\n  ${errorsOf(validator)}\nbody: ${JSON.stringify(body).slice(0, 2000)}`);
  }
  // Clients of the current @gitbook/api read the same answers: where it describes the operation too, its
  // schema must hold as well (it requires fields 0.146 did not).
  if (match.specId === 'gitbook-0.146') {
    const current = findOperation(method, apiPath, SPECS.filter((spec) => spec.id === 'gitbook-current'));
    const currentValidator = current && schemaValidator(current, String(status));
    if (current && currentValidator && !currentValidator(body) && !(currentValidator.errors ?? []).every(isDocumentedDeviation)) {
      throw new ContractViolation(`${where} (gitbook-current ${current.template}) violates the current contract:\n  ${errorsOf(currentValidator)}\nbody: ${JSON.stringify(body).slice(0, 2000)}`);
    }
  }
}

/**
 * Operations whose objects the current contract widened: GitBook's site redirects gained wildcard
 * sources (`/old/*`) and external destinations after 0.146, a user's role on a site gained the
 * site itself as an origin (site grants), and a site's structure and its section groups gained
 * external links among their items. Their answers must hold for the current contract; 0.146's
 * narrower one is not asked of them.
 */
const WIDENED_SINCE_0146 = new Set([
  // Events (their payload's union) gained `task` after 0.146.
  'listIntegrationEvents',
  'getIntegrationEvent',
  'createSiteRedirect',
  'listSiteRedirects',
  'updateSiteRedirectById',
  'getSiteRedirectBySource',
  'listPermissionsAggregateInSite',
  'getSiteStructure',
  'getPublishedContentSite',
  'listSiteSectionGroups',
  'addSectionGroupToSite',
  'updateSiteSectionGroupById',
  'addSectionToGroup',
  'moveSiteSectionGroup',
  'sortSiteStructure',
]);

function holdsCurrent(method: string, apiPath: string, status: number, body: unknown): boolean {
  const current = findOperation(method, apiPath, SPECS.filter((spec) => spec.id === 'gitbook-current'));
  const validator = current && schemaValidator(current, String(status));
  return !!validator && validator(body);
}

/**
 * What the README documents as left out on purpose: a Git Sync link to a host other than GitHub or
 * GitLab has no `installationProvider` (the current contract's enum has no value for it).
 */
/**
 * A spec's content: GitBook's schema calls `filesystem` an object, but GitBook's API sends, and its
 * renderer reads (as @gitbook/openapi-parser's Filesystem), a list of files. The list is checked here
 * for the parser's shape, then stands for the object the schema asks for.
 */
const FILESYSTEM_AS_FILES = new Set(['getLatestOpenAPISpecVersionContent', 'getOpenAPISpecVersionContentById']);

function asDocumented(operationId: string | undefined, body: unknown, where: string): unknown {
  if (!FILESYSTEM_AS_FILES.has(operationId ?? '') || !body || typeof body !== 'object' || !Array.isArray((body as { filesystem?: unknown }).filesystem)) return body;
  const files = (body as { filesystem: unknown[] }).filesystem;
  const isFile = (file: any) =>
    file && typeof file.dir === 'string' && typeof file.isEntrypoint === 'boolean' && Array.isArray(file.references) && typeof file.filename === 'string' && file.specification && typeof file.specification === 'object';
  if (!files.length || !files.every(isFile) || files.filter((file: any) => file.isEntrypoint).length !== 1) {
    throw new ContractViolation(`${where}: filesystem must be a list of {dir, isEntrypoint, references, filename, specification} with one entry point`);
  }
  return { ...body, filesystem: {} };
}

function isDocumentedDeviation(error: ErrorObject): boolean {
  return error.keyword === 'required' && (error.params as { missingProperty?: string }).missingProperty === 'installationProvider';
}

function errorsOf(validator: ValidateFunction): string {
  return (validator.errors ?? [])
    .slice(0, 8)
    .map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`)
    .join('\n  ');
}
