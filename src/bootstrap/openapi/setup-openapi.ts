import { INestApplication, Type } from '@nestjs/common';
import type { Request, Response } from 'express';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { AppConfig, REFUSES_EMPTY_BODY } from '@app/common';
import { ERROR_SCHEMA, ERROR_SCHEMA_NAME, errorResponseComponents, errorStatuses } from './error-responses';
import { declareExtensions } from './extensions';
import { GitBookContract, dropImportMarkers } from './gitbook-contract';
import { RouteInfo, routeInventory } from './route-inventory';
import { Schema, constraintsOf, mergeConstraints } from './validation-schema';

const API_PREFIX = '/v1';
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

/** Serves `/openapi.json` and the `/docs` UI: Swagger's document, completed so it tells the truth. */
export function setupOpenApi(app: INestApplication, config: AppConfig): void {
  const document = buildOpenApiDocument(app, config);
  // Registered first, so it answers instead of @nestjs/swagger's own init script, which pastes the whole document in
  // through String.replace: a `$` pattern in any description (getSubdomain's `...$`) broke the script and left /docs blank.
  for (const path of ['/docs/swagger-ui-init.js', '/docs/docs/swagger-ui-init.js']) {
    app.getHttpAdapter().get(path, (_req: Request, res: Response) => void res.type('application/javascript').send(SWAGGER_UI_INIT));
  }
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'openapi.json', useGlobalPrefix: false });
}

/** Swagger UI's start: it reads the served document from this server (under whatever path a proxy mounts it). */
const SWAGGER_UI_INIT = `window.onload = function () {
  var base = window.location.pathname.replace(/\\/docs(\\/.*)?$/, '');
  window.ui = SwaggerUIBundle({
    url: base + '/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    plugins: [SwaggerUIBundle.plugins.DownloadUrl],
    layout: 'StandaloneLayout',
  });
};
`;

export function buildOpenApiDocument(app: INestApplication, config: AppConfig): OpenAPIObject {
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Docs Platform API')
      .setDescription(
        'GitBook API v1 compatible. Lists use keyset pagination: `limit` defaults to 50 and may not exceed 1000; ' +
          'pass `next.page` back as `page`. Errors are `{"error": {"code", "message"}}`.',
      )
      .setVersion('1')
      .addServer(`${config.publicUrl}${API_PREFIX}`)
      .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'opaque', description: 'An API token (opaque, e.g. `gbp_…`)' }, 'user')
      .addBearerAuth(
        {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description:
            "A published site's reader token: the `apiToken` of `POST /urls/published`, valid for an hour while the site is " +
            'published and still shows the space it names. It reads that space\'s current content only (the operations that ' +
            'list this scheme); other spaces answer 404, other operations 403.',
        },
        'site',
      )
      .addBearerAuth(
        {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'opaque',
          description:
            "An integration installation's token (`gbi_…`, from `createIntegrationInstallationToken` or with each call to the integration's service), " +
            'an hour long: the operations listing this scheme name the scopes they need from the installation (an empty list: the integration\'s own ' +
            "installation), on the spaces and sites it is installed on; other operations answer it 403. See docs/integrations.md.",
        },
        'integration-installation',
      )
      // Readers' pages are HTML, not API operations (their errors are pages, not the error shape): described here.
      .addTag(
        'published sites (reader pages)',
        'Published sites are served as HTML outside `/v1`, with no token: `{PUBLIC_URL}/sites/{basename or id}/[section/][variant/]{page path}` ' +
          "and the same paths at the root of a site's `hostname`; also `{page}.md` (text/markdown), `~search?q=`, `robots.txt`, " +
          '`sitemap.xml` and `llms.txt`. Answers: 200 with `ETag` (`If-None-Match` gives 304); 302 to drop `jwt_token`/`visitor.*` ' +
          'from the address (kept in HttpOnly cookies) or to the site\'s sign-in URL; 401 page for a visitor-auth site without a valid ' +
          'token; 404 page for unpublished sites, wrong share keys, hidden sections and missing pages. `POST /urls/published` resolves the same addresses.',
      )
      .build(),
  );
  complete(document as never, routeInventory(app), config);
  return document;
}

type Doc = { paths: Record<string, Record<string, any>>; components: Record<string, Record<string, any>>; security?: unknown };

function complete(document: Doc, routes: RouteInfo[], config: AppConfig): void {
  document.components ??= {};
  document.components.schemas ??= {};
  document.components.schemas[ERROR_SCHEMA_NAME] = ERROR_SCHEMA;
  document.components.responses = { ...document.components.responses, ...errorResponseComponents() };
  const gitbook = new GitBookContract(document as never);
  const enriched = new Set<string>();
  const routeOf = new Map(routes.map((route) => [`${route.method} ${route.path}`, route]));

  const paths: Doc['paths'] = {};
  for (const [swaggerPath, item] of Object.entries(document.paths)) {
    // Express 5 catch-alls (`path/*pagePath`: a page path spans segments) are one `{pagePath}` parameter to clients.
    const rawPath = swaggerPath.replace(/\/\*(\w+)/g, '/{$1}');
    const versioned = rawPath === API_PREFIX || rawPath.startsWith(`${API_PREFIX}/`);
    // GitBook's paths are relative to a `/v1` server; the few browser-facing addresses outside it say so.
    const path = versioned ? rawPath.slice(API_PREFIX.length) || '/' : rawPath;
    if (!versioned) item.servers = [{ url: config.publicUrl }];
    paths[path] = item;
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const route = routeOf.get(`${method} ${path}`) ?? routeOf.get(`${method} ${rawPath}`);
      completeOperation(document, gitbook, enriched, method, path, operation, route);
      if (versioned && config.rateLimits.enabled) declareRateLimits(operation);
      if (versioned && config.idempotency.enabled && (method === 'post' || method === 'patch')) declareIdempotency(operation);
    }
    declarePathParameters(item, rawPath);
  }
  document.paths = paths;
  if (config.rateLimits.enabled) document.components.headers = { ...document.components.headers, ...RATE_LIMIT_HEADERS };
  declareExtensions(document.components.schemas);
  dropImportMarkers(document as never);
}

const RATE_LIMIT_HEADERS: Record<string, unknown> = {
  'X-RateLimit-Limit': { description: 'Requests allowed per window in the tightest budget that applies (per token or per client address; reads and writes apart)', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Requests left in that budget', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'When that budget starts over, in epoch seconds', schema: { type: 'integer' } },
};

/** Every `/v1` answer carries the budget headers; over budget is a 429 with `Retry-After`. */
function declareRateLimits(operation: any): void {
  const headers = Object.fromEntries(Object.keys(RATE_LIMIT_HEADERS).map((name) => [name, { $ref: `#/components/headers/${name}` }]));
  for (const [status, response] of Object.entries<any>(operation.responses)) {
    if (/^[23]/.test(status) && !response.$ref) response.headers = { ...response.headers, ...headers };
  }
  operation.responses['429'] ??= { $ref: '#/components/responses/Error429' };
}

/** POST and PATCH take an `Idempotency-Key`: a repeat gets the stored answer (`Idempotent-Replayed`), a different request 422, one still running 409. */
function declareIdempotency(operation: any): void {
  operation.parameters ??= [];
  operation.parameters.push({
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description:
      'Any string of 1 to 255 visible ASCII characters, unique per intended change. The first answer is stored for IDEMPOTENCY_TTL_HOURS ' +
      '(24 by default) per token and key: a repeat with the same method, path and body gets it again with `Idempotent-Replayed: true`; ' +
      'the key with a different request is a 422; a repeat while the first is still running is a 409. 5xx and 429 answers are not stored.',
    schema: { type: 'string', minLength: 1, maxLength: 255 },
  });
  for (const [status, response] of Object.entries<any>(operation.responses)) {
    if (/^2/.test(status) && !response.$ref) {
      response.headers = { ...response.headers, 'Idempotent-Replayed': { description: '`true` when this is the stored answer of an earlier request with the same `Idempotency-Key`', schema: { type: 'string', enum: ['true'] } } };
    }
  }
  operation.responses['409'] ??= { $ref: '#/components/responses/Error409' };
  operation.responses['422'] ??= { $ref: '#/components/responses/Error422' };
}

/** Every `{name}` of the path is a required path parameter (catch-all routes reach here without one). */
function declarePathParameters(item: Record<string, any>, path: string): void {
  const names = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
  for (const method of METHODS) {
    const operation = item[method];
    if (!operation) continue;
    const parameters: any[] = (operation.parameters ??= []);
    for (const name of names) {
      const existing = parameters.find((p) => p.name === name);
      if (!existing) parameters.push({ name, in: 'path', required: true, schema: { type: 'string' } });
    }
  }
}

function completeOperation(
  document: Doc,
  gitbook: GitBookContract,
  enriched: Set<string>,
  method: string,
  path: string,
  operation: any,
  route: RouteInfo | undefined,
): void {
  const authenticated = route ? !route.isPublic : true;
  if (authenticated) {
    operation.security = route?.siteReadable ? [{ user: [] }, { site: [] }] : [{ user: [] }];
    if (route?.integrationScopes) operation.security.push({ 'integration-installation': [...route.integrationScopes] });
  }
  else delete operation.security;
  const resolveDto = (dto: Type<unknown>) => dtoSchema(document, enriched, dto);
  if (route?.bodyType) {
    const schema = operation.requestBody?.content?.['application/json']?.schema;
    if (schema) enrichObject(document, enriched, schema, route.bodyType, resolveDto);
  }
  if (route?.queryType) enrichQuery(operation, route.queryType, resolveDto);

  const theirs = gitbook.operation(method, path);
  if (theirs) {
    const declared = Object.keys(operation.responses ?? {}).filter(isSuccess);
    for (const status of declared) {
      const response = gitbook.response(theirs.source, theirs.operation, status);
      if (response) operation.responses[status] = { ...response, description: operation.responses[status].description || response.description };
    }
    const ours = new Set((operation.parameters ?? []).map((p: any) => `${p.in}:${p.name}`));
    const unsupported: string[] = [];
    for (const parameter of gitbook.parameters(theirs.source, theirs.operation)) {
      const own = (operation.parameters ?? []).find((p: any) => p.in === parameter.in && p.name === parameter.name);
      if (own && !own.description && parameter.description) own.description = parameter.description;
      if (!ours.has(`${parameter.in}:${parameter.name}`)) unsupported.push(`${parameter.name} (${parameter.in})`);
    }
    if (unsupported.length > 0) {
      operation['x-unsupported-gitbook-parameters'] = unsupported;
      operation.description = `${operation.description ? `${operation.description}\n\n` : ''}Not supported (GitBook's contract has them): ${unsupported.join(', ')}.`;
    }
  }

  // Reads that take If-None-Match (ConditionalRead) may answer 304.
  if ((operation.parameters ?? []).some((p: any) => p.in === 'header' && p.name === 'If-None-Match')) {
    operation.responses['304'] ??= { description: 'Not modified since the given `ETag` (no body)' };
  }
  const hasQuery = (operation.parameters ?? []).some((p: any) => p.in === 'query');
  for (const status of errorStatuses({ method, path, authenticated, hasBody: Boolean(operation.requestBody), hasQuery })) {
    operation.responses[status] ??= { $ref: `#/components/responses/Error${status}` };
  }
  // Whatever a decorator said about an error, its body is the one shape the exception filter writes.
  for (const [status, response] of Object.entries<any>(operation.responses)) {
    if (/^[45]\d\d$/.test(status) && !response.$ref) {
      response.content = { 'application/json': { schema: { $ref: `#/components/schemas/${ERROR_SCHEMA_NAME}` } } };
    }
  }
}

function isSuccess(status: string): boolean {
  return /^2\d\d$/.test(status);
}

/** A DTO's schema: its Swagger component enriched (once) when it has one, else built from its constraints. */
function dtoSchema(document: Doc, enriched: Set<string>, dto: Type<unknown>): Schema {
  const component = document.components.schemas[dto.name];
  if (component) {
    enrichObject(document, enriched, { $ref: `#/components/schemas/${dto.name}` }, dto, (nested) => dtoSchema(document, enriched, nested));
    return { $ref: `#/components/schemas/${dto.name}` };
  }
  const schema: Schema = { type: 'object' };
  enrichObject(document, enriched, schema, dto, (nested) => dtoSchema(document, enriched, nested));
  return schema;
}

function enrichObject(document: Doc, enriched: Set<string>, schema: Schema, dto: Type<unknown>, resolveDto: (dto: Type<unknown>) => Schema): void {
  let target = schema;
  if (schema.$ref) {
    const name = String(schema.$ref).split('/').pop()!;
    if (enriched.has(name)) return;
    enriched.add(name);
    target = document.components.schemas[name];
  }
  const { properties, required } = constraintsOf(dto);
  target.type ??= 'object';
  target.properties ??= {};
  for (const [name, derived] of Object.entries(properties)) mergeConstraints((target.properties[name] ??= {}), derived, resolveDto);
  if (required.length > 0) target.required = required;
  else delete target.required;
  if (Reflect.getMetadata(REFUSES_EMPTY_BODY, dto)) target.minProperties = 1;
}

function enrichQuery(operation: any, dto: Type<unknown>, resolveDto: (dto: Type<unknown>) => Schema): void {
  const { properties, required } = constraintsOf(dto);
  operation.parameters ??= [];
  for (const [name, derived] of Object.entries(properties)) {
    let parameter = operation.parameters.find((p: any) => p.in === 'query' && p.name === name);
    if (!parameter) {
      parameter = { name, in: 'query', schema: {} };
      operation.parameters.push(parameter);
    }
    parameter.required = required.includes(name);
    parameter.schema ??= {};
    mergeConstraints(parameter.schema, derived, resolveDto);
  }
}
