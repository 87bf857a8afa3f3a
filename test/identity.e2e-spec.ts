import { TestApp } from '@app/testing';
import request from 'supertest';

describe('identity and conventions', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t.close());

  it('GET /v1/user returns the token owner', async () => {
    const alice = await t.user('Alice');
    const res = await alice.client.get('/v1/user');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'user', id: alice.id, displayName: 'Alice', email: alice.email });
    expect(res.body.urls.location).toBe(`http://docs.test/v1/users/${alice.id}`);
  });

  it('answers 401 without a token, with a malformed header and with an unknown token', async () => {
    expect((await t.client().get('/v1/user')).status).toBe(401);
    const bad = await request(t.app.getHttpServer()).get('/v1/user').set('Authorization', 'Token abc');
    expect(bad.status).toBe(401);
    expect(bad.body).toEqual({ error: { code: 401, message: expect.any(String) } });
    expect((await t.client('gbp_unknown').get('/v1/user')).status).toBe(401);
  });

  it('stores only a hash of each token', async () => {
    const bob = await t.user('Bob');
    const rows: { token_hash: string }[] = await t.dataSource.query('SELECT token_hash FROM api_tokens WHERE user_id = $1', [bob.id]);
    expect(rows).toHaveLength(1);
    expect(rows[0].token_hash).not.toContain(bob.token);
    expect(rows[0].token_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('answers 404 in the error shape for unknown routes', async () => {
    const alice = await t.user();
    const res = await alice.client.get('/v1/does-not-exist');
    expect(res.status).toBe(404);
  });

  it('turns malformed JSON into a 400 and an oversize body into a 413', async () => {
    const alice = await t.user();
    const malformed = await alice.client.raw('post', '/v1/orgs', '{"title": ');
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.message).toMatch(/JSON/);
    const huge = await alice.client.raw('post', '/v1/orgs', JSON.stringify({ title: 'x'.repeat(2 * 1024 * 1024) }));
    expect(huge.status).toBe(413);
    const orgs = await alice.client.get('/v1/orgs');
    expect(orgs.body.count).toBe(0);
  });

  it('echoes a request id', async () => {
    const res = await request(t.app.getHttpServer()).get('/health').set('X-Request-Id', 'abc-123');
    expect(res.headers['x-request-id']).toBe('abc-123');
  });

  it('GET /health answers 200 when PostgreSQL and Redis answer', async () => {
    const res = await request(t.app.getHttpServer()).get('/health');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('ok');
  });

  it('serves the OpenAPI document and Swagger UI', async () => {
    const json = await request(t.app.getHttpServer()).get('/openapi.json');
    expect(json.status).toBe(200);
    // Paths are GitBook's, relative to the /v1 server.
    expect(json.body.paths['/user']).toBeDefined();
    expect(json.body.servers).toEqual([{ url: 'http://docs.test/v1' }]);
    const ui = await request(t.app.getHttpServer()).get('/docs/');
    expect(ui.status).toBe(200);
    expect(ui.text).toContain('swagger');
  });

  it('answers 400 to a forged or malformed page cursor', async () => {
    const alice = await t.user();
    const forged = Buffer.from(JSON.stringify(['not a date', 'x'])).toString('base64url');
    const res = await alice.client.get('/v1/orgs', { page: forged });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/cursor/);
    expect((await alice.client.get('/v1/orgs', { page: '%%%' })).status).toBe(400);
    expect((await alice.client.get('/v1/orgs', { limit: 1001 })).status).toBe(400);
  });
});

describe('PATCH /v1/users/{userId} (updateUserById)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t.close());

  it('lets users change their own name and photo, seen wherever they appear', async () => {
    const alice = await t.user('Alice');
    const bob = await t.user('Bob');
    const org = await t.organization(alice, [[bob, 'read']]);
    const res = await alice.client.patch<any>(`/v1/users/${alice.id}`, { displayName: '  Alice Liddell ', photoURL: 'https://example.com/alice.png' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'user', id: alice.id, displayName: 'Alice Liddell', photoURL: 'https://example.com/alice.png', email: alice.email });
    expect((await alice.client.get<any>('/v1/user')).body.displayName).toBe('Alice Liddell');
    expect((await bob.client.get<any>(`/v1/users/${alice.id}`)).body).toMatchObject({ displayName: 'Alice Liddell', photoURL: 'https://example.com/alice.png' });
    const members = (await bob.client.get<any>(`/v1/orgs/${org}/members`)).body.items;
    expect(members.find((m: any) => m.user.id === alice.id).user.displayName).toBe('Alice Liddell');
    // One field at a time keeps the other.
    expect((await alice.client.patch<any>(`/v1/users/${alice.id}`, { displayName: 'Alice' })).body).toMatchObject({ displayName: 'Alice', photoURL: 'https://example.com/alice.png' });
  });

  it('refuses others (403 when visible, 404 otherwise) and bad input (400), changing nothing', async () => {
    const alice = await t.user('Alice');
    const bob = await t.user('Bob');
    const stranger = await t.user('Stranger');
    await t.organization(alice, [[bob, 'admin']]);
    expect((await bob.client.patch(`/v1/users/${alice.id}`, { displayName: 'Mallory' })).status).toBe(403);
    expect((await stranger.client.patch(`/v1/users/${alice.id}`, { displayName: 'Mallory' })).status).toBe(404);
    expect((await alice.client.patch('/v1/users/nope', { displayName: 'x' })).status).toBe(404);
    for (const body of [{}, { displayName: '' }, { displayName: '   ' }, { displayName: 'x'.repeat(65) }, { photoURL: 'javascript:alert(1)' }, { photoURL: 'not a url' }, { email: 'a@b.c' }]) {
      const res = await alice.client.patch<any>(`/v1/users/${alice.id}`, body);
      expect([res.status, body]).toEqual([400, body]);
      expect(res.body.error.code).toBe(400);
    }
    expect((await alice.client.get<any>('/v1/user')).body.displayName).toBe('Alice');
  });
});
