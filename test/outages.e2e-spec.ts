import request from 'supertest';
import { TestApp, TestUser, createTestDatabase, describeWithRedis, dropTestDatabase, testRedisUrl, testServerUrl, uniqueTestName } from '@app/testing';
import { TcpProxy } from './support/tcp-proxy';
import { until } from './support/waiting';

/**
 * PostgreSQL or Redis going away under a running API (a proxy in front of each is cut): requests
 * that need the missing one answer 503 with Retry-After, at once, never 500 or a hang; everything
 * answers again within seconds of its return.
 */
describeWithRedis('Dependency outages', () => {
  const dbName = uniqueTestName('outage');
  let postgres: TcpProxy;
  let redis: TcpProxy;
  let t: TestApp;
  let alice: TestUser;

  beforeAll(async () => {
    const server = new URL(testServerUrl());
    const redisServer = new URL(testRedisUrl()!);
    postgres = await TcpProxy.start({ host: server.hostname, port: Number(server.port || 5432) });
    redis = await TcpProxy.start({ host: redisServer.hostname, port: Number(redisServer.port || 6379) });
    const direct = await createTestDatabase(dbName);
    t = await TestApp.start({
      databaseUrl: postgres.via(direct),
      databaseDirectUrl: postgres.via(direct),
      redisUrl: redis.via(testRedisUrl()!),
      jobsBackend: 'redis',
      queuePrefix: dbName,
      idempotency: { enabled: true, ttlMs: 60_000 },
    });
    alice = await t.user('Alice');
  });
  afterAll(async () => {
    await postgres.restore().catch(() => undefined);
    await redis.restore().catch(() => undefined);
    await t?.close();
    await postgres.stop();
    await redis.stop();
    await dropTestDatabase(dbName);
  });

  const call = (method: 'get' | 'post', path: string, body?: object, key?: string) => {
    let req = request(t.app.getHttpServer())[method](path).set('Authorization', `Bearer ${alice.token}`);
    if (key) req = req.set('Idempotency-Key', key);
    return body ? req.send(body) : req;
  };

  it('answers 503 with Retry-After while PostgreSQL is away, and 200 again within 5 s of its return', async () => {
    expect((await call('get', '/v1/user')).status).toBe(200);
    await postgres.cut();
    for (const res of [await call('get', '/v1/user'), await call('post', '/v1/orgs', { title: 'Down' })]) {
      expect([res.status, res.body.error?.code, res.headers['retry-after']]).toEqual([503, 503, '5']);
    }
    await postgres.restore();
    const back = Date.now();
    await until('the API to answer again', async () => ((await call('get', '/v1/user')).status === 200 ? true : undefined), 5000, 50);
    expect(Date.now() - back).toBeLessThan(5000);
    expect((await call('post', '/v1/orgs', { title: 'Up' })).status).toBe(201);
  });

  it('answers an Idempotency-Key request 503 at once while Redis is away; requests without the header go on', async () => {
    expect((await call('post', '/v1/orgs', { title: 'Keyed' }, 'outage-key-1')).status).toBe(201);
    await redis.cut();
    const started = Date.now();
    const keyed = await call('post', '/v1/orgs', { title: 'Keyed while down' }, 'outage-key-2');
    expect([keyed.status, keyed.headers['retry-after']]).toEqual([503, '5']);
    expect(Date.now() - started).toBeLessThan(1000);
    expect((await call('post', '/v1/orgs', { title: 'Unkeyed while down' })).status).toBe(201);
    await redis.restore();
    await until('keyed requests to be taken again', async () => ((await call('post', '/v1/orgs', { title: 'Keyed again' }, 'outage-key-3')).status === 201 ? true : undefined), 5000, 100);
    const titles = (await call('get', '/v1/orgs')).body.items.map((org: { title: string }) => org.title);
    expect(titles).not.toContain('Keyed while down');
    expect(titles.filter((title: string) => title === 'Keyed again')).toHaveLength(1);
  });
});
