import { request as httpRequest } from 'node:http';
import { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import request from 'supertest';
import { MAX_JSON_KEYS, encodeCursor } from '@app/common';
import { TestApp, TestUser } from '@app/testing';
import { MARKDOWN_LIMITS } from '../src/modules/content/domain/markdown/parser';
import { space } from './spaces.fixtures';

/** Issue 7 §1: no request may produce a 500 or stall the server. */
describe('request robustness', () => {
  let t: TestApp;
  let alice: TestUser;
  let org: string;
  let spaceId: string;
  let port: number;

  beforeAll(async () => {
    t = await TestApp.start();
    alice = await t.user('Alice');
    org = await t.organization(alice);
    spaceId = await space(alice, org, { title: 'Docs' });
    // A real listening socket for what supertest cannot send (no Content-Type, oversized headers).
    await t.app.listen(0, '127.0.0.1');
    port = (t.app.getHttpServer().address() as AddressInfo).port;
  });
  afterAll(() => t.close());

  const http = () => request(t.app.getHttpServer());
  const auth = { Authorization: '' };
  beforeAll(() => (auth.Authorization = `Bearer ${alice.token}`));

  function expectError(res: { status: number; body: unknown }, status: number) {
    expect(res.status).toBe(status);
    expect(res.body).toEqual({ error: { code: status, message: expect.any(String) } });
  }

  /** A raw HTTP/1.1 exchange, for requests supertest would rewrite. */
  function raw(method: string, path: string, headers: Record<string, string>, body?: Buffer) {
    return new Promise<{ status: number; body: any }>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, method, path, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            /* left as text: the assertion on the shape fails */
          }
          resolve({ status: res.statusCode ?? 0, body: parsed });
        });
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  describe('NUL characters', () => {
    /** Every route the app serves, from its own OpenAPI document. */
    async function routes(): Promise<{ method: string; path: string; hasBody: boolean }[]> {
      const spec = await http().get('/openapi.json');
      expect(spec.status).toBe(200);
      const all: { method: string; path: string; hasBody: boolean }[] = [];
      for (const [documented, operations] of Object.entries<Record<string, any>>(spec.body.paths)) {
        // Paths are relative to the `/v1` server, except those whose path item names its own server.
        const path = operations.servers ? documented : `/v1${documented}`;
        for (const [method, operation] of Object.entries(operations)) {
          if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
          // A body of any type (a file PUT to an upload address) is bytes stored as they are, NULs included.
          const binary = operation.requestBody?.content?.['*/*'] !== undefined;
          all.push({ method, path, hasBody: operation.requestBody !== undefined && !binary });
        }
      }
      return all;
    }

    const fill = (path: string, value: string) => path.replace(/\{[^}]+\}/g, value);

    it('walks every route: a %00 path id is a 404, a %00 query value a 400, never a 500', async () => {
      const all = await routes();
      expect(all.length).toBeGreaterThan(100);
      const failures: string[] = [];
      for (const route of all) {
        for (const token of [alice.token, undefined]) {
          const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
          if (route.path.includes('{')) {
            const res = await raw(route.method.toUpperCase(), fill(route.path, 'ab%00cd'), headers);
            if (res.status !== 404 || res.body?.error?.code !== 404) failures.push(`${route.method} ${route.path} id: ${res.status}`);
          }
          const query = await raw(route.method.toUpperCase(), `${fill(route.path, 'x')}?search=%00&page=a%00`, headers);
          if (query.status !== 400 || query.body?.error?.code !== 400) failures.push(`${route.method} ${route.path} query: ${query.status}`);
        }
      }
      expect(failures).toEqual([]);
    });

    it('walks every route taking a body: a NUL in any string or key, at any depth, is a 400', async () => {
      const withBody = (await routes()).filter((r) => r.hasBody);
      expect(withBody.length).toBeGreaterThan(30);
      const bodies = [{ title: 'a\u0000b' }, { deep: [{ x: { y: ['ok', 'n\u0000'] } }] }, { ['k\u0000']: 1 }];
      const failures: string[] = [];
      for (const route of withBody) {
        const form = route.path.endsWith('/acs');
        for (const body of bodies) {
          let req = http()[route.method as 'post'](fill(route.path, spaceId)).set(auth);
          req = form ? req.type('form').send('SAMLResponse=ab%00cd') : req.send(body);
          const res = await req;
          if (res.status !== 400 || res.body?.error?.code !== 400) failures.push(`${route.method} ${route.path}: ${res.status} ${JSON.stringify(body)}`);
        }
      }
      expect(failures).toEqual([]);
    });

    it('answers the public routes too: /pdf/{token}, /sso/saml/{id}/metadata|start|acs', async () => {
      expectError(await http().get('/pdf/ab%00cd'), 404);
      expectError(await http().get('/sso/saml/ab%00cd/metadata'), 404);
      expectError(await http().get('/sso/saml/ab%00cd/start'), 404);
      expectError(await http().post('/sso/saml/ab%00cd/acs').type('form').send('SAMLResponse=x'), 404);
      expectError(await http().post('/sso/saml/abcd/acs').type('form').send('SAMLResponse=a%00b'), 400);
      expectError(await http().get(`/v1/orgs/${org}/members`).query({ search: '\u0000' }).set(auth), 400);
    });

    it('still takes a form body on the SAML ACS (an unknown provider is a 404, not a 415)', async () => {
      expectError(await http().post('/sso/saml/nosuchprovider/acs').type('form').send('SAMLResponse=abc'), 404);
      expectError(await http().post('/sso/saml/nosuchprovider/acs').send({ SAMLResponse: 'abc' }), 415);
    });
  });

  describe('body parsing', () => {
    const orgs = () => http().post('/v1/orgs').set(auth);
    async function orgTitles(): Promise<string[]> {
      const rows: { title: string }[] = await t.dataSource.query('SELECT title FROM organizations');
      return rows.map((r) => r.title);
    }

    it('refuses a JSON body in a charset other than UTF-8 with a 415', async () => {
      expectError(await orgs().set('Content-Type', 'application/json; charset=iso-8859-1').send('{"title":"Latin"}'), 415);
    });

    it('refuses a gzip body that does not inflate (400) and an unknown Content-Encoding (415); takes real gzip', async () => {
      expectError(await orgs().set('Content-Type', 'application/json').set('Content-Encoding', 'gzip').send('{"title":"x"}'), 400);
      expectError(await orgs().set('Content-Type', 'application/json').set('Content-Encoding', 'br2').send('{"title":"x"}'), 415);
      const zipped = await raw('POST', '/v1/orgs', { ...auth, 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' }, gzipSync('{"title":"Zipped"}'));
      expect(zipped.status).toBe(201);
      expect(zipped.body.title).toBe('Zipped');
    });

    it.each([
      ['text/plain', 'title=Plain'],
      ['application/x-www-form-urlencoded', 'title=Form'],
      ['multipart/form-data; boundary=b', '--b\r\nContent-Disposition: form-data; name="title"\r\n\r\nMultipart\r\n--b--\r\n'],
      ['application/xml', '<org><title>XML</title></org>'],
    ])('refuses a %s body to a JSON route with a 415 and creates nothing', async (type, body) => {
      const before = (await orgTitles()).length;
      expectError(await orgs().set('Content-Type', type).send(body), 415);
      expect((await orgTitles()).length).toBe(before);
    });

    it('refuses a body without Content-Type (415); an empty POST without one is fine', async () => {
      const before = (await orgTitles()).length;
      expectError(await raw('POST', '/v1/orgs', { ...auth, 'Content-Length': '17' }, Buffer.from('{"title":"None"}\n')), 415);
      expect((await orgTitles()).length).toBe(before);
      const empty = await raw('POST', `/v1/orgs/${org}/ping`, { ...auth, 'Content-Length': '0' });
      expect(empty.status).toBeLessThan(300);
    });

    it('answers an over-long request line or headers with a JSON 431', async () => {
      expectError(await raw('GET', '/v1/user', { ...auth, 'X-Padding': 'p'.repeat(20_000) }), 431);
      expectError(await raw('GET', `/v1/user?q=${'q'.repeat(20_000)}`, auth), 431);
    });
  });

  describe('bounded work before validation', () => {
    it(`refuses a body with more than ${MAX_JSON_KEYS} properties before parsing it, with a short message`, async () => {
      const keys: Record<string, number> = {};
      for (let i = 0; i < 90_000; i++) keys[`k${i.toString(36)}`] = 0;
      const res = await http().patch(`/v1/spaces/${spaceId}`).set(auth).send(keys);
      expectError(res, 400);
      expect(res.body.error.message).toBe(`Request body has 90000 properties; at most ${MAX_JSON_KEYS} are accepted`);
    });

    it('names the first ten unknown properties and how many more', async () => {
      const keys: Record<string, number> = {};
      for (let i = 0; i < 500; i++) keys[`k${i}`] = i;
      const res = await http().patch(`/v1/spaces/${spaceId}`).set(auth).send(keys);
      expectError(res, 400);
      expect(res.body.error.message).toMatch(/^k0: property k0 should not exist; .*k9: property k9 should not exist; and 490 more$/);
      expect(res.body.error.message.length).toBeLessThan(600);
    });

    it.each([
      ['"*[" x 100,000', '*['.repeat(100_000)],
      ['"[a](b)" x 50,000', '[a](b)'.repeat(50_000)],
      ['a table of 6,000 cells', '|a|b|c|\n|-|-|-|\n' + '|a|b|c|\n'.repeat(2_000)],
    ])('refuses pathological markdown (%s) with a 400 naming the bound', async (_label, markdown) => {
      const cr = await alice.client.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Edit' });
      expect(cr.status).toBe(201);
      const res = await http()
        .post(`/v1/spaces/${spaceId}/change-requests/${cr.body.id}/content`)
        .set(auth)
        .send({ changes: [{ operation: 'insert_page', title: 'Bomb', document: { markdown } }] });
      expectError(res, 400);
      expect(res.body.error.message).toMatch(new RegExp(`${MARKDOWN_LIMITS.inlineMarkup}|${MARKDOWN_LIMITS.inlineBlocks}`));
    });
  });

  describe('list parameters', () => {
    it.each(['1e3', '0x10', ' 5', '5.0', '+5', '-1', '0', '1001'])('refuses limit=%p with a 400', async (limit) => {
      expectError(await http().get('/v1/orgs').query({ limit }).set(auth), 400);
    });

    it('takes a plain decimal limit', async () => {
      expect((await http().get('/v1/orgs').query({ limit: '5' }).set(auth)).status).toBe(200);
    });

    it.each([
      ['[null,null]', [null, null]],
      ['[{},"x"]', [{}, 'x']],
      ['[true,"x"]', [true, 'x']],
      ['["",""]', ['', '']],
      ['["2026-01-01T00:00:00.000Z"]', ['2026-01-01T00:00:00.000Z']],
      // Well shaped, but no time: PostgreSQL refuses the value when the page is read.
      ['["not a time","x"]', ['not a time', 'x']],
    ])('refuses a forged cursor %s with a 400', async (_label, values) => {
      const page = Buffer.from(JSON.stringify(values)).toString('base64url');
      expectError(await http().get('/v1/orgs').query({ page }).set(auth), 400);
      expectError(await http().get(`/v1/orgs/${org}/spaces`).query({ page }).set(auth), 400);
    });

    it('follows a cursor it issued', async () => {
      await t.organization(alice, [], 'Second');
      const first = await http().get('/v1/orgs').query({ limit: '1' }).set(auth);
      expect(first.status).toBe(200);
      const second = await http().get('/v1/orgs').query({ limit: '1', page: first.body.next.page }).set(auth);
      expect(second.status).toBe(200);
      expect(encodeCursor(['a'])).toBe(Buffer.from('["a"]').toString('base64url'));
    });
  });
});
