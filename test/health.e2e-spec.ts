import { AddressInfo } from 'node:net';
import request from 'supertest';
import { TestApp } from '@app/testing';

describe('GET /health when a dependency is down', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Nothing listens on this port: Redis, the job backend of this app, is "down".
    t = await TestApp.start({ redisUrl: 'redis://127.0.0.1:6399', jobsBackend: 'redis' });
  });
  afterAll(() => t.close());

  it('answers 503 naming the failing dependency', async () => {
    const res = await request(t.app.getHttpServer()).get('/health');
    expect(res.status).toBe(503);
    expect(res.body.error).toEqual({ code: 503, message: 'Unhealthy: redis not answering' });
  });
});

describe('GET /v1/ (getApiInformation)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t.close());

  it("answers this server's release and build time to callers with a token, also through the official client", async () => {
    const user = await t.user('Reader');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { version } = require('../package.json') as { version: string };
    const res = await user.client.get<any>('/v1/');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ version, build: expect.any(String) });
    expect(new Date(res.body.build).toISOString()).toBe(res.body.build);
    expect((await request(t.app.getHttpServer()).get('/v1/')).status).toBe(401);

    await t.app.listen(0, '127.0.0.1');
    const endpoint = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { GitBookAPI } = require('gitbook-api-current');
    const info = await new GitBookAPI({ endpoint, authToken: user.token }).getApiInformation();
    expect(info.data).toEqual(res.body);
  });
});

describe('GET / (where to go from here)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t.close());

  it('answers browsers a page linking the docs, the console and the health check, and other clients JSON', async () => {
    const page = await request(t.app.getHttpServer()).get('/').set('Accept', 'text/html,application/xhtml+xml');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    for (const href of ['/docs', '/admin', '/health', '/openapi.json']) expect(page.text).toContain(`href="${href}"`);
    const json = await request(t.app.getHttpServer()).get('/');
    expect(json.status).toBe(200);
    expect(json.body).toMatchObject({ name: 'Docs Platform', links: { docs: '/docs', health: '/health', console: '/admin', api: '/v1' } });
  });
});
