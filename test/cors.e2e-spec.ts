import request from 'supertest';
import { TestApp } from '@app/testing';

describe('CORS (CORS_ORIGINS allow-list)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await TestApp.start({ corsOrigins: ['https://app.example.com'] });
  });
  afterAll(() => t.close());

  const preflight = (origin: string) =>
    request(t.app.getHttpServer())
      .options('/v1/spaces/x/change-requests/y/content')
      .set('Origin', origin)
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'authorization,content-type');

  it('answers the preflight of an allowed origin with the headers the official client needs', async () => {
    const res = await preflight('https://app.example.com');
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('https://app.example.com');
    expect(res.headers['access-control-allow-headers']).toBe('Authorization,Content-Type');
    expect(res.headers['access-control-allow-methods']).toBe('GET,HEAD,POST,PUT,PATCH,DELETE');
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('gives other origins no CORS headers, on preflight and on requests', async () => {
    const res = await preflight('https://evil.example.com');
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(res.headers['access-control-allow-headers']).toBeUndefined();
    const get = await request(t.app.getHttpServer()).get('/v1/user').set('Origin', 'https://evil.example.com');
    expect(get.status).toBe(401);
    expect(get.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('marks actual responses to an allowed origin, errors included', async () => {
    const user = await t.user();
    const ok = await request(t.app.getHttpServer()).get('/v1/user').set('Origin', 'https://app.example.com').set('Authorization', `Bearer ${user.token}`);
    expect(ok.status).toBe(200);
    expect(ok.headers['access-control-allow-origin']).toBe('https://app.example.com');
    const denied = await request(t.app.getHttpServer()).get('/v1/user').set('Origin', 'https://app.example.com');
    expect(denied.status).toBe(401);
    expect(denied.headers['access-control-allow-origin']).toBe('https://app.example.com');
  });
});

describe('CORS by default', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t.close());

  it('sends no CORS headers at all when CORS_ORIGINS is empty', async () => {
    expect(t.config.corsOrigins).toEqual([]);
    const res = await request(t.app.getHttpServer())
      .options('/v1/user')
      .set('Origin', 'https://app.example.com')
      .set('Access-Control-Request-Method', 'GET');
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });
});
