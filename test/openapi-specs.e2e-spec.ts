import { readFileSync } from 'node:fs';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { TestApp, TestUser } from '@app/testing';
import { contractTransport } from './support/contract-transport';
import { TestWorker } from '@app/testing/test-worker';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { GitBookAPI } = require('gitbook-api-current');

const FIXTURES = join(__dirname, 'fixtures', 'openapi');
const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');

/** A local source server: fixtures by name, plus misbehaving routes. */
function sourceServer(): Promise<{ server: Server; base: string; setPetstore(text: string): void }> {
  let petstore = fixture('petstore.json');
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/petstore.json') return res.end(petstore);
    if (path === '/redirect') {
      res.writeHead(302, { location: '/petstore.json' });
      return res.end();
    }
    if (path === '/slow') return void setTimeout(() => res.end('{}'), 3000);
    if (path === '/big') return res.end(`{"openapi":"3.0.0","x":"${'a'.repeat(300_000)}"}`);
    if (path === '/missing') {
      res.writeHead(404);
      return res.end();
    }
    try {
      res.end(fixture(path.slice(1)));
    } catch {
      res.writeHead(404);
      res.end();
    }
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      resolve({ server, base, setPetstore: (text) => (petstore = text) });
    }),
  );
}

describe('OpenAPI specifications', () => {
  let t: TestApp;
  let worker: TestWorker;
  let source: Awaited<ReturnType<typeof sourceServer>>;
  let alice: TestUser; // admin
  let creator: TestUser; // create
  let reader: TestUser; // read
  let guest: TestUser; // guest
  let mallory: TestUser; // other organization
  let org: string;
  let endpoint: string;
  /** A request without a token, as a reader's browser makes it. */
  const anonymous = async (path: string) => {
    const response = await fetch(`${endpoint}${path}`);
    return { status: response.status, headers: Object.fromEntries(response.headers), text: await response.text() };
  };

  beforeAll(async () => {
    source = await sourceServer();
    // Bodies elsewhere are bounded at 100 kB: spec texts up to OPENAPI_MAX_BYTES (200 kB here) must still get through.
    t = await TestApp.start({ outboundAllowPrivate: true, openapiFetchTimeoutMs: 500, openapiMaxBytes: 200_000, bodyLimit: '100kb' });
    worker = await TestWorker.start(t);
    [alice, creator, reader, guest, mallory] = [await t.user('Alice'), await t.user('Cora'), await t.user('Rita'), await t.user('Gus'), await t.user('Mallory')];
    org = await t.organization(alice, [
      [creator, 'create'],
      [reader, 'read'],
      [guest, null],
    ]);
    await t.app.listen(0, '127.0.0.1');
    endpoint = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    await t.organization(mallory, [], 'Elsewhere');
  });
  afterAll(async () => {
    await worker.close();
    await t.close();
    source.server.close();
  });

  const base = () => `/v1/orgs/${org}/openapi`;
  let counter = 0;
  const slug = () => `spec-${++counter}`;

  async function processed(specSlug: string, generation?: number): Promise<Record<string, any>> {
    for (let i = 0; i < 300; i++) {
      const [row] = await t.dataSource.query(`SELECT processing_state, generation FROM openapi_specs WHERE organization_id = $1 AND slug = $2`, [org, specSlug]);
      if (row?.processing_state === 'complete' && (generation === undefined || row.generation === generation)) {
        return (await alice.client.get<any>(`${base()}/${specSlug}`)).body;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`${specSlug} was not processed`);
  }

  describe('create, read, list', () => {
    it('creates a spec from a URL as pending, processes it in the worker into a first version', async () => {
      const name = slug();
      const res = await creator.client.post<any>(base(), { slug: name, source: { url: `${source.base}/petstore.json` } });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        object: 'openapi-spec',
        slug: name,
        sourceURL: `${source.base}/petstore.json`,
        processingState: 'pending',
        visibility: 'private',
        lastProcessedErrors: [],
        lastProcessedErrorCount: 0,
        permissions: { view: true, edit: true },
        urls: { location: `http://docs.test/v1/orgs/${org}/openapi/${name}`, app: expect.any(String) },
      });
      expect(res.body.urls.published).toBeUndefined();
      const done = await processed(name);
      expect(done).toMatchObject({ processingState: 'complete', lastVersion: expect.any(String), lastProcessedAt: expect.any(String) });
      expect(done.lastProcessErrorCode).toBeUndefined();
      const announced = await t.dataSource.query(`SELECT data FROM domain_events WHERE type = 'openapi_spec.processed' AND data->>'slug' = $1`, [name]);
      expect(announced).toEqual([{ data: expect.objectContaining({ slug: name, version: done.lastVersion, newVersion: true }) }]);

      const versions = await reader.client.get<any>(`${base()}/${name}/versions`);
      expect(versions.body.items).toEqual([expect.objectContaining({ object: 'openapi-spec-version', id: done.lastVersion })]);
      expect((await reader.client.get<any>(`${base()}/${name}/versions/latest`)).body.id).toBe(done.lastVersion);
      expect((await reader.client.get<any>(`${base()}/${name}/versions/${done.lastVersion}`)).body.urls.location).toBe(
        `http://docs.test/v1/orgs/${org}/openapi/${name}/versions/${done.lastVersion}`,
      );
      // the referenced file is bundled in: one document, no external $ref left
      const content = (await reader.client.get<any>(`${base()}/${name}/versions/latest/content`)).body;
      const document = content.filesystem[0].specification;
      expect(document.paths['/pets'].get.operationId).toBe('listPets');
      expect(JSON.stringify(document)).not.toContain('schemas.yaml');
      expect(JSON.stringify(document)).toContain('"format":"int64"');
      expect(content.urls).toEqual({ source: `${source.base}/petstore.json`, public: null });
      const raw = (await reader.client.get<any>(`${base()}/${name}/versions/latest/content/raw`)).body;
      expect(raw).toEqual({ text: fixture('petstore.json'), format: 'json' });
    });

    it('takes text sources (YAML, Swagger 2.0) and follows redirects', async () => {
      const yaml = slug();
      expect((await creator.client.post(base(), { slug: yaml, source: { text: fixture('swagger2.yaml') } })).status).toBe(201);
      expect((await processed(yaml)).lastVersion).toEqual(expect.any(String));
      expect((await reader.client.get<any>(`${base()}/${yaml}/versions/latest/content/raw`)).body.format).toBe('yaml');
      const moved = slug();
      await creator.client.must.post(base(), { slug: moved, source: { url: `${source.base}/redirect` } });
      expect((await processed(moved)).lastProcessErrorCode).toBeUndefined();
    });

    it('takes text sources up to OPENAPI_MAX_BYTES, above BODY_LIMIT; larger ones are refused', async () => {
      const padded = (bytes: number) => JSON.stringify({ openapi: '3.0.3', info: { title: 'Big', version: '1', description: 'd'.repeat(bytes) }, paths: {} });
      const name = slug();
      expect((await creator.client.post<any>(base(), { slug: name, source: { text: padded(150_000) } })).status).toBe(201);
      expect((await creator.client.put<any>(`${base()}/${name}`, { source: { text: padded(160_000) } })).status).toBe(200);
      const over = await creator.client.post<any>(base(), { slug: slug(), source: { text: padded(250_000) } });
      expect(over.status).toBe(400);
      expect(over.body.error.message).toMatch(/200000/);
      // Far over the bound, the body itself is refused before it is read whole.
      expect((await creator.client.post<any>(base(), { slug: slug(), source: { text: padded(400_000) } })).status).toBe(413);
      // Other routes keep BODY_LIMIT.
      expect((await creator.client.post<any>(`/v1/orgs/${org}/spaces`, { title: 'x'.repeat(150_000) })).status).toBe(413);
    });

    it('validates the body: slug pattern and uniqueness (409), exactly one source, http(s) URLs', async () => {
      const name = slug();
      expect((await creator.client.post(base(), { slug: name, source: { text: '{}' } })).status).toBe(201);
      const taken = await creator.client.post<any>(base(), { slug: name, source: { text: '{}' } });
      expect(taken.status).toBe(409);
      expect(taken.body.error.message).toContain(name);
      for (const body of [
        { slug: 'bad slug', source: { text: 'x' } },
        { slug: '-x', source: { text: 'x' } },
        { slug: 'a'.repeat(101), source: { text: 'x' } },
        { slug: slug(), source: {} },
        { slug: slug(), source: { url: 'https://a.example/x', text: 'x' } },
        { slug: slug(), source: { url: 'ftp://a.example/x' } },
        { slug: slug(), source: { url: 'https://user:pw@a.example/x' } },
        { slug: slug(), source: { text: '' } },
        { slug: slug() },
      ]) {
        const res = await creator.client.post<any>(base(), body);
        expect([res.status, JSON.stringify(body)]).toEqual([400, JSON.stringify(body)]);
      }
    });

    it('members read, the create role writes, guests and outsiders see nothing', async () => {
      const name = slug();
      await creator.client.must.post(base(), { slug: name, source: { text: fixture('swagger2.yaml') } });
      const asReader = await reader.client.get<any>(`${base()}/${name}`);
      expect(asReader.body.permissions).toEqual({ view: true, edit: false });
      expect((await reader.client.post(base(), { slug: slug(), source: { text: 'x' } })).status).toBe(403);
      expect((await reader.client.patch(`${base()}/${name}`, { visibility: 'public' })).status).toBe(403);
      expect((await reader.client.delete(`${base()}/${name}`)).status).toBe(403);
      expect((await guest.client.get(`${base()}/${name}`)).status).toBe(404);
      expect((await guest.client.get(base())).status).toBe(404);
      expect((await mallory.client.get(`${base()}/${name}`)).status).toBe(404);
      expect((await mallory.client.get(base())).status).toBe(404);
      expect((await mallory.client.put(`${base()}/${name}`, { source: { text: 'x' } })).status).toBe(404);
      expect((await alice.client.get(`${base()}/nope`)).status).toBe(404);
      const list = await reader.client.get<any>(`${base()}?limit=2`);
      expect(list.body.items).toHaveLength(2);
      expect(list.body.count).toBeGreaterThan(2);
      const second = await reader.client.get<any>(`${base()}?limit=2&page=${list.body.next.page}`);
      expect(second.body.items[0].id).not.toBe(list.body.items[1].id);
    });
  });

  describe('processing', () => {
    it('makes a new version only when the document changed; the last good version survives a failure', async () => {
      const name = slug();
      source.setPetstore(fixture('petstore.json'));
      await creator.client.must.post(base(), { slug: name, source: { url: `${source.base}/petstore.json` } });
      const first = await processed(name);

      // same document again (PUT re-processes): no new version
      const again = await creator.client.put<any>(`${base()}/${name}`, { source: { url: `${source.base}/petstore.json` } });
      expect(again.status).toBe(200);
      expect(again.body.processingState).toBe('pending');
      const same = await processed(name, 2);
      expect(same.lastVersion).toBe(first.lastVersion);
      expect((await reader.client.get<any>(`${base()}/${name}/versions`)).body.items).toHaveLength(1);

      // a changed document: a second version, newest first
      t.clock.advance(60_000);
      source.setPetstore(fixture('petstore.json').replace('List all pets', 'List the pets'));
      await creator.client.must.put(`${base()}/${name}`, { source: { url: `${source.base}/petstore.json` } });
      const changed = await processed(name, 3);
      expect(changed.lastVersion).not.toBe(first.lastVersion);
      const versions = (await reader.client.get<any>(`${base()}/${name}/versions`)).body.items.map((v: { id: string }) => v.id);
      expect(versions).toEqual([changed.lastVersion, first.lastVersion]);

      // a source that does not parse: errors reported, the last good version stays current
      await creator.client.must.put(`${base()}/${name}`, { source: { text: '{"openapi": "3.0.3", "paths": ' } });
      const failed = await processed(name, 4);
      expect(failed.lastProcessErrorCode).toBe('PARSE_ERROR');
      expect(failed.lastProcessedErrors.length).toBeGreaterThan(0);
      expect(failed.lastProcessedErrorCount).toBe(failed.lastProcessedErrors.length);
      expect(failed.lastVersion).toBe(changed.lastVersion);
      source.setPetstore(fixture('petstore.json'));
    });

    it.each([
      ['an unreachable source', '/missing', 'FETCH_ERROR', /HTTP 404/],
      ['a slow source', '/slow', 'FETCH_TIMEOUT', /within 500 ms/],
      ['an oversized source', '/big', 'FETCH_ERROR', /larger than 200000 bytes/],
    ])('reports %s as %s', async (_what, path, code, message) => {
      const name = slug();
      await creator.client.must.post(base(), { slug: name, source: { url: `${source.base}${path}` } });
      const done = await processed(name);
      expect(done.lastProcessErrorCode).toBe(code);
      expect(done.lastProcessedErrors[0].message).toMatch(message);
      expect(done.lastVersion).toBeUndefined();
    });

    it('processes schemas that share references without expanding them (40 schemas each naming the next twice), OpenAPI 3 and Swagger 2', async () => {
      const chain = (prefix: string) =>
        Object.fromEntries(
          Array.from({ length: 40 }, (_, i) => [`S${i}`, i === 39 ? { type: 'string' } : { type: 'object', properties: { a: { $ref: `${prefix}S${i + 1}` }, b: { $ref: `${prefix}S${i + 1}` } } }]),
        );
      const openapi = { openapi: '3.0.3', info: { title: 'Chain', version: '1' }, paths: { '/x': { get: { responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/S0' } } } } } } } }, components: { schemas: chain('#/components/schemas/') } };
      const swagger = { swagger: '2.0', info: { title: 'Chain', version: '1' }, paths: { '/x/{id}': { get: { parameters: [{ in: 'path', name: 'id', required: true, type: 'string' }], responses: { '200': { description: 'ok', schema: { $ref: '#/definitions/S0' } } } } } }, definitions: chain('#/definitions/') };
      for (const document of [openapi, swagger]) {
        const name = slug();
        expect(JSON.stringify(document).length).toBeLessThan(6000);
        expect((await creator.client.post(base(), { slug: name, source: { text: JSON.stringify(document) } })).status).toBe(201);
        // processed() waits 15 s at most; expanding the references took the whole 120 s processing limit.
        expect((await processed(name)).lastVersion).toBeDefined();
      }
      // Swagger 2's own checks still run through the references: a path parameter left undeclared is reported.
      const broken = structuredClone(swagger);
      broken.paths['/x/{id}'].get.parameters = [];
      const name = slug();
      await creator.client.must.post(base(), { slug: name, source: { text: JSON.stringify(broken) } });
      const warned = await processed(name);
      expect(JSON.stringify(warned.lastProcessedErrors)).toMatch(/missing path parameter/);
    });

    it('keeps a spec that breaks a rule, reporting what it breaks as warnings (one bad part never rejects the whole)', async () => {
      // invalid.json: a response without a description whose content is a string.
      const name = slug();
      await creator.client.must.post(base(), { slug: name, source: { text: fixture('invalid.json') } });
      const kept = await processed(name);
      expect(kept.lastVersion).toBeDefined();
      expect(kept.lastProcessErrorCode).toBeUndefined();
      expect(kept.lastProcessedErrors.length).toBeGreaterThan(0);
      expect(kept.lastProcessedErrorCount).toBe(kept.lastProcessedErrors.length);
      // OAI's tictactoe 3.1 example writes `scheme: Bearer` (capitalised): its operations are served
      const tictactoe = {
        openapi: '3.1.0',
        info: { title: 'Tic Tac Toe', version: '1.0.0' },
        paths: { '/board': { get: { operationId: 'get-board', security: [{ bearerHttpAuthentication: [] }], responses: { '200': { description: 'OK', content: { 'application/json': { schema: { type: 'array' } } } } } } } },
        components: { securitySchemes: { bearerHttpAuthentication: { type: 'http', scheme: 'Bearer', bearerFormat: 'JWT' } } },
      };
      const game = slug();
      await creator.client.must.post(base(), { slug: game, source: { text: JSON.stringify(tictactoe) } });
      const served = await processed(game);
      expect(served.lastVersion).toBeDefined();
      const content = (await reader.client.get<any>(`${base()}/${game}/versions/latest/content`)).body;
      expect(Object.keys(content.filesystem[0].specification.paths)).toEqual(['/board']);
    });

    it('keeps the keys of examples in the order the spec wrote them', async () => {
      const twilio = { openapi: '3.0.3', info: { title: 'Messages', version: '1' }, paths: { '/Messages': { post: { responses: { '201': { description: 'Created', content: { 'application/json': { example: { account_sid: 'AC1', api_version: '2010-04-01', body: 'Hi', date_created: 'Thu, 24 Aug 2023', to: '+1555' } } } } } } } } };
      const name = slug();
      await creator.client.must.post(base(), { slug: name, source: { text: JSON.stringify(twilio) } });
      await processed(name);
      const content = (await reader.client.get<any>(`${base()}/${name}/versions/latest/content`)).body;
      expect(Object.keys(content.filesystem[0].specification.paths['/Messages'].post.responses['201'].content['application/json'].example)).toEqual(['account_sid', 'api_version', 'body', 'date_created', 'to']);
    });

    it('reports YAML and JSON syntax errors and non-OpenAPI documents as PARSE_ERROR', async () => {
      for (const text of ['openapi: [unclosed', '{"openapi": ', '{"hello": "world"}', 'just: a map']) {
        const name = slug();
        await creator.client.must.post(base(), { slug: name, source: { text } });
        const done = await processed(name);
        expect([text, done.lastProcessErrorCode]).toEqual([text, 'PARSE_ERROR']);
      }
    });

    it('refuses sources on private addresses unless the operator allows them', async () => {
      const strict = await TestApp.start({ outboundAllowPrivate: false });
      const strictWorker = await TestWorker.start(strict);
      try {
        const owner = await strict.user('Owner');
        const orgId = await strict.organization(owner);
        await owner.client.must.post(`/v1/orgs/${orgId}/openapi`, { slug: 'local', source: { url: `${source.base}/petstore.json` } });
        let row: any;
        for (let i = 0; i < 200 && row?.processing_state !== 'complete'; i++) {
          await new Promise((r) => setTimeout(r, 50));
          [row] = await strict.dataSource.query(`SELECT * FROM openapi_specs WHERE slug = 'local'`);
        }
        expect(row).toMatchObject({ processing_state: 'complete', last_process_error_code: 'FETCH_ERROR', last_version_id: null });
        expect(row.last_processed_errors[0].message).not.toMatch(/ECONN|127\.0\.0\.1:\d+ /);
      } finally {
        await strictWorker.close();
        await strict.close();
      }
    });
  });

  describe('visibility, public reading, delete', () => {
    it('public specs are readable without a token; private ones are not', async () => {
      source.setPetstore(fixture('petstore.json'));
      const name = slug();
      await creator.client.must.post(base(), { slug: name, source: { url: `${source.base}/petstore.json` } });
      const spec = await processed(name);
      expect((await anonymous(`/openapi/${org}/${name}`)).status).toBe(404);
      expect((await anonymous(`/openapi/${org}/${name}/openapi.json`)).status).toBe(404);

      const patched = await creator.client.patch<any>(`${base()}/${name}`, { visibility: 'public' });
      expect(patched.status).toBe(200);
      expect(patched.body.urls.published).toBe(`http://docs.test/openapi/${org}/${name}`);
      expect((await creator.client.patch(`${base()}/${name}`, { visibility: 'secret' })).status).toBe(400);

      const page = await anonymous(`/openapi/${org}/${name}`);
      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toMatch(/text\/html/);
      expect(page.text).toContain('List all pets');
      expect(page.text).toContain('<code>/pets</code>');
      expect(page.text).toContain('Petstore &lt;script&gt;');
      expect(page.text).not.toContain('<script>');
      expect(page.headers['content-security-policy']).toContain("default-src 'none'");
      const document = await anonymous(`/openapi/${org}/${name}/openapi.json`);
      expect(JSON.parse(document.text).paths['/pets'].post.operationId).toBe('createPet');
      const version = await anonymous(`/openapi/${org}/${name}/versions/${spec.lastVersion}/openapi.json`);
      expect(version.status).toBe(200);
      expect((await anonymous(`/openapi/${org}/${name}/versions/nope/openapi.json`)).status).toBe(404);
      const content = (await reader.client.get<any>(`${base()}/${name}/versions/latest/content`)).body;
      expect(content.urls.public).toBe(`http://docs.test/openapi/${org}/${name}/openapi.json`);
    });

    it('deletes with its versions (205), then answers 204', async () => {
      const name = slug();
      await creator.client.must.post(base(), { slug: name, source: { text: fixture('swagger2.yaml') } });
      const spec = await processed(name);
      expect((await creator.client.delete(`${base()}/${name}`)).status).toBe(205);
      expect((await creator.client.delete(`${base()}/${name}`)).status).toBe(204);
      expect((await reader.client.get(`${base()}/${name}`)).status).toBe(404);
      expect((await t.dataSource.query(`SELECT count(*)::int AS n FROM openapi_spec_versions WHERE id = $1`, [spec.lastVersion]))[0].n).toBe(0);
      // the slug is free again
      const created = await creator.client.put(`${base()}/${name}`, { source: { text: fixture('swagger2.yaml') } });
      expect(created.status).toBe(201);
    });
  });

  it('works through the official client, every answer within the contract', async () => {
    const transport = contractTransport();
    const api = new GitBookAPI({ endpoint, authToken: creator.token, serviceBinding: transport }).orgs;
    const name = slug();
    expect((await api.createOpenApiSpec(org, { slug: name, source: { url: `${source.base}/petstore.json` } })).status).toBe(201);
    await processed(name);
    expect((await api.getOpenApiSpecBySlug(org, name)).data.processingState).toBe('complete');
    expect((await api.listOpenApiSpecs(org)).data.items.length).toBeGreaterThan(0);
    const versions = await api.listOpenApiSpecVersions(org, name);
    expect((await api.getOpenApiSpecVersionById(org, name, versions.data.items[0].id)).data.id).toBe(versions.data.items[0].id);
    expect((await api.getLatestOpenApiSpecVersion(org, name)).data.id).toBe(versions.data.items[0].id);
    expect((await api.getLatestOpenApiSpecVersionContent(org, name)).data.filesystem.map((file: any) => [file.filename, file.isEntrypoint, file.dir])).toEqual([['openapi.json', true, '.']]);
    expect((await api.getOpenApiSpecVersionContentById(org, name, versions.data.items[0].id)).data.urls.public).toBeNull();
    expect((await api.getLatestOpenApiSpecVersionContentRaw(org, name)).data.format).toBe('json');
    expect((await api.updateOpenApiSpecBySlug(org, name, { visibility: 'public' })).data.visibility).toBe('public');
    expect((await api.createOrUpdateOpenApiSpecBySlug(org, name, { source: { text: fixture('swagger2.yaml') } })).status).toBe(200);
    expect((await api.deleteOpenApiSpecBySlug(org, name)).status).toBe(205);
  });
});
