import { execFile } from 'node:child_process';
import request from 'supertest';
import { TestApp, TestUser } from '@app/testing';
import { routeLayers } from '../src/bootstrap/route-index';

type Doc = { paths: Record<string, Record<string, any>>; components: Record<string, Record<string, any>>; servers: { url: string }[] };
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
const GITBOOK = [require('gitbook-api-current/spec/openapi.json'), require('@gitbook/api/spec/openapi.json')];

/** Every operation of the served document, with its path as served (relative to its server). */
function operations(doc: Doc): { method: string; path: string; operation: any; pathItem: any }[] {
  return Object.entries(doc.paths).flatMap(([path, pathItem]) =>
    METHODS.filter((m) => pathItem[m]).map((method) => ({ method, path, operation: pathItem[method], pathItem })),
  );
}

/**
 * @apidevtools/swagger-parser is an ES module, which this CommonJS test run cannot import: it validates the
 * document in a child Node process, read from stdin; the promise rejects with its message when invalid.
 */
function validateWithSwaggerParser(document: unknown): Promise<void> {
  const script =
    "import SwaggerParser from '@apidevtools/swagger-parser'; let s = ''; process.stdin.on('data', (c) => (s += c));" +
    "process.stdin.on('end', () => SwaggerParser.validate(JSON.parse(s)).then(() => process.exit(0), (e) => { console.error(e.message); process.exit(1); }));";
  return new Promise((resolve, reject) => {
    const child = execFile(process.execPath, ['--input-type=module', '-e', script], { cwd: __dirname, maxBuffer: 1 << 24 }, (error, _out, stderr) =>
      error ? reject(new Error(stderr || error.message)) : resolve(),
    );
    child.stdin!.end(JSON.stringify(document));
  });
}

function deref(doc: any, node: any): any {
  let current = node;
  while (current?.$ref) current = current.$ref.slice(2).split('/').reduce((n: any, k: string) => n?.[k.replace(/~1/g, '/')], doc);
  return current;
}

/** The smallest value the schema calls valid: required properties only, bounds met, first enum/oneOf branch. */
function minimal(doc: Doc, input: any): unknown {
  const schema = deref(doc, input);
  if (!schema) return {};
  if (schema.allOf) return Object.assign({}, ...schema.allOf.map((s: any) => minimal(doc, s)));
  if (schema.oneOf || schema.anyOf) return minimal(doc, (schema.oneOf ?? schema.anyOf)[0]);
  if (schema.enum) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  if (schema.example !== undefined) return schema.example;
  switch (schema.type) {
    case 'object':
    case undefined:
    {
      const names: string[] = [...(schema.required ?? [])];
      // `minProperties`: add optional properties until there are enough.
      for (const name of Object.keys(schema.properties ?? {})) if (names.length < (schema.minProperties ?? 0) && !names.includes(name)) names.push(name);
      return Object.fromEntries(names.map((name) => [name, minimal(doc, schema.properties?.[name] ?? {})]));
    }
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => minimal(doc, schema.items ?? {}));
    case 'integer':
    case 'number':
      return Math.max(schema.minimum ?? 0, schema.exclusiveMinimum ? (schema.minimum ?? 0) + 1 : 0);
    case 'boolean':
      return false;
    default:
      if (schema.format === 'email') return 'someone@example.com';
      if (schema.format === 'uri') return 'https://example.com/x';
      return 'a'.repeat(Math.max(1, schema.minLength ?? 1));
  }
}

describe('served /openapi.json', () => {
  let t: TestApp;
  let doc: Doc;
  let owner: TestUser;
  beforeAll(async () => {
    t = await TestApp.start();
    doc = (await request(t.app.getHttpServer()).get('/openapi.json').expect(200)).body;
    owner = await t.user('Owner');
    await t.organization(owner);
  });
  afterAll(() => t.close());

  it('is a valid OpenAPI 3 document whose API token scheme does not claim JWT; site tokens, which are JWTs, read content only', async () => {
    await expect(validateWithSwaggerParser(doc)).resolves.toBeUndefined();
    expect(doc.servers).toEqual([{ url: 'http://docs.test/v1' }]);
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['integration-installation', 'site', 'user']);
    expect(doc.components.securitySchemes.user.bearerFormat).toBe('opaque');
    expect(doc.components.securitySchemes.site.bearerFormat).toBe('JWT');
    expect(doc.paths['/spaces/{spaceId}/content'].get.security).toEqual([{ user: [] }, { site: [] }, { 'integration-installation': ['space:content:read'] }]);
    expect(doc.paths['/spaces/{spaceId}'].patch.security).toEqual([{ user: [] }]);
    // Installation tokens: the scopes each route needs, on the routes open to them only.
    expect(doc.paths['/spaces/{spaceId}/comments'].post.security).toEqual([{ user: [] }, { 'integration-installation': ['space:content:write'] }]);
    expect(doc.paths['/spaces/{spaceId}'].get.security).toContainEqual({ 'integration-installation': ['space:metadata:read', 'space:content:read'] });
    expect(doc.paths['/integrations/{integrationName}/installations/{installationId}'].get.security).toContainEqual({ 'integration-installation': [] });
    expect(doc.paths['/orgs/{organizationId}/members'].get.security).toEqual([{ user: [] }]);
    expect(doc.components.securitySchemes['integration-installation']).toMatchObject({ type: 'http', scheme: 'bearer' });
    const siteReadable = Object.entries(doc.paths).flatMap(([path, item]: [string, any]) =>
      Object.entries(item)
        .filter(([, operation]: [string, any]) => operation.security?.some((entry: object) => 'site' in entry))
        .map(([method]) => `${method} ${path}`),
    );
    const allowed = (route: string) =>
      route.startsWith('get /spaces/{spaceId}') ||
      route.startsWith('post /spaces/{spaceId}/content/computed/') ||
      ['published', 'structure', 'redirect'].some((tail) => route === `get /orgs/{organizationId}/sites/{siteId}/${tail}`) ||
      // GitBook's renderer searches the site with its reader's token.
      route === 'post /orgs/{organizationId}/sites/{siteId}/search' ||
      // ... reads the specs its blocks show (never the list of them) and the people its content mentions.
      (route.startsWith('get /orgs/{organizationId}/openapi/{specSlug}') && !route.endsWith('/versions')) ||
      route === 'get /users/{userId}' ||
      // ... and renders the integration blocks of its pages.
      route === 'get /integrations/{integrationName}/render' ||
      route === 'post /integrations/{integrationName}/render';
    expect(siteReadable.filter((route) => !allowed(route))).toEqual([]);
  });

  it('documents every route the app serves', () => {
    const served = routeLayers(t.app.getHttpAdapter().getInstance().router)
      // Middleware (logging) is mounted for every HTTP method at once; controller routes have one method each.
      .filter((layer: any) => layer.route && Object.keys(layer.route.methods).length === 1)
      .flatMap((layer: any) =>
        Object.keys(layer.route.methods)
          .filter((m) => METHODS.includes(m))
          .map((m) => `${m} ${String(layer.route.path).replace(/:(\w+)/g, '{$1}').replace(/\{\*(\w+)\}/g, '{$1}').replace(/\*(\w+)/g, '{$1}')}`),
      )
      // The document itself, its UI, and the landing page that links them.
      .filter((route: string) => !/^get \/($|docs|openapi\.json)/.test(route));
    expect(served.length).toBeGreaterThan(100);
    const documented = new Set(
      // `/` under the server's `/v1` is the route `/v1` (getApiInformation).
      operations(doc).map(({ method, path, pathItem }) => `${method} ${pathItem.servers ? '' : '/v1'}${path}`.replace(/(.)\/$/, '$1')),
    );
    expect(served.filter((route: string) => !documented.has(route))).toEqual([]);
  });

  it("keeps GitBook's method, path, parameters and success statuses for every operation GitBook has", () => {
    let compared = 0;
    const problems: string[] = [];
    for (const { method, path, operation, pathItem } of operations(doc)) {
      if (pathItem.servers) continue;
      const spec = GITBOOK.find((s) => s.paths[path]?.[method]);
      if (!spec) continue;
      compared++;
      const theirs = spec.paths[path][method];
      const ours = new Set((operation.parameters ?? []).map((p: any) => `${p.name} (${p.in})`));
      const unsupported = new Set(operation['x-unsupported-gitbook-parameters'] ?? []);
      for (const parameter of (theirs.parameters ?? []).map((p: any) => deref(spec, p))) {
        const key = `${parameter.name} (${parameter.in})`;
        // Path parameters are never optional: a client builds the URL from them.
        if (parameter.in === 'path' ? !ours.has(key) : !ours.has(key) && !unsupported.has(key)) problems.push(`${method} ${path}: ${key}`);
      }
      const success = Object.keys(operation.responses).filter((s) => /^2/.test(s));
      // Where the pinned and the current contract disagree (cancelImportRun: 201 then, 200 now), either will do.
      const theirSuccess = GITBOOK.flatMap((s) => Object.keys(s.paths[path]?.[method]?.responses ?? {})).filter((s) => /^2/.test(s));
      if (success.length === 0 || success.some((s) => !theirSuccess.includes(s))) problems.push(`${method} ${path}: ${success} vs ${theirSuccess}`);
    }
    expect(compared).toBeGreaterThan(100);
    expect(problems).toEqual([]);
  });

  it('declares success schemas (so generated clients get typed responses) and error responses everywhere', () => {
    const problems: string[] = [];
    for (const { method, path, operation } of operations(doc)) {
      const where = `${method} ${path}`;
      for (const [status, declared] of Object.entries<any>(operation.responses)) {
        const response = deref(doc, declared);
        for (const [type, media] of Object.entries<any>(response.content ?? {})) {
          if (!media.schema || Object.keys(media.schema).length === 0) problems.push(`${where} ${status} ${type}: no schema`);
        }
        if (/^[45]/.test(status) && deref(doc, response.content?.['application/json']?.schema)?.required?.[0] !== 'error') {
          problems.push(`${where} ${status}: not the error shape`);
        }
      }
      const success = Object.keys(operation.responses).filter((s) => /^[23]/.test(s));
      if (success.length === 0) problems.push(`${where}: no success response`);
      if (operation.security && !operation.responses['401']) problems.push(`${where}: authenticated without 401`);
      if (path.includes('{') && !operation.responses['404']) problems.push(`${where}: path ids without 404`);
      if (operation.requestBody && !operation.responses['400']) problems.push(`${where}: body without 400`);
    }
    expect(problems).toEqual([]);
  });

  it('the ChangeRequestContentUpdate shape is what updateChangeRequestContent documents', () => {
    const operation = doc.paths['/spaces/{spaceId}/change-requests/{changeRequestId}/content'].post;
    const schema = operation.responses['200'].content['application/json'].schema;
    expect(JSON.stringify(schema)).toContain('#/components/schemas/ChangeRequestContentUpdate');
    expect(doc.components.schemas.ChangeRequestContentUpdate.required).toEqual(['changeRequest', 'changes']);
  });

  it("declares the fields we add to GitBook's objects, such as a change request's conflicts", () => {
    const operation = doc.paths['/spaces/{spaceId}/change-requests/{changeRequestId}'].get;
    const ref = operation.responses['200'].content['application/json'].schema.$ref as string;
    const schema = doc.components.schemas[ref.split('/').pop()!];
    expect(schema.properties.conflicts).toMatchObject({ type: 'array', items: { required: ['page', 'reasons'] } });
    // beside GitBook's own fields of an object it has
    expect(Object.keys(schema.properties.styleguide.properties)).toEqual(expect.arrayContaining(['site', 'run', 'changedPages', 'checkedAt', 'unrevisedPages', 'uncheckedPages']));
    const merge = doc.paths['/spaces/{spaceId}/change-requests/{changeRequestId}/merge'].post;
    expect(JSON.stringify(merge.responses['200'])).toContain('conflicts');
  });

  it('a minimal body the document calls valid is never refused as invalid', async () => {
    const refused: string[] = [];
    let tried = 0;
    for (const { method, path, operation, pathItem } of operations(doc)) {
      const body = operation.requestBody?.content?.['application/json'];
      if (!body) continue;
      tried++;
      const url = (pathItem.servers ? '' : '/v1') + path.replace(/\{\w+\}/g, 'unknown-id');
      const query = Object.fromEntries(
        (operation.parameters ?? []).filter((p: any) => p.in === 'query' && p.required).map((p: any) => [p.name, String(minimal(doc, p.schema))]),
      );
      const example = minimal(doc, body.schema);
      const res = await request(t.app.getHttpServer())[method as 'post'](url)
        .set('Authorization', `Bearer ${owner.token}`)
        .query(query)
        .send(example as object);
      if (res.status === 400) refused.push(`${method} ${path} ${JSON.stringify(example)}: ${res.body?.error?.message}`);
    }
    expect(tried).toBeGreaterThan(40);
    expect(refused).toEqual([]);
  });
});
