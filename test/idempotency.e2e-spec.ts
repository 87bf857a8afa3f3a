import type { IncomingMessage, ServerResponse } from 'node:http';
import request from 'supertest';
import Redis from 'ioredis';
import { QueryRunner } from 'typeorm';
import { TestApp, TestUser, describeWithRedis, testRedisUrl } from '@app/testing';
import { OwnRedis } from './support/own-redis';
import { until } from './support/worker-process';

describe('Idempotency-Key', () => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  let org: string;

  beforeAll(async () => {
    t = await TestApp.start();
    alice = await t.user('Alice');
    bob = await t.user('Bob');
    org = await t.organization(alice, [[bob, 'admin']]);
  });
  afterAll(async () => {
    await t.close();
  });

  const post = (app: TestApp, user: TestUser, path: string, body: unknown, key?: string) => {
    let req = request(app.app.getHttpServer()).post(path).set('Authorization', `Bearer ${user.token}`);
    if (key !== undefined) req = req.set('Idempotency-Key', key);
    return req.send(body as object);
  };
  const spaceCount = async (title: string) => Number((await t.dataSource.query(`SELECT count(*) FROM spaces WHERE title = $1`, [title]))[0].count);

  it('a repeat with the same body gets the stored answer, marked as a replay; the write happens once', async () => {
    const first = await post(t, alice, `/v1/orgs/${org}/spaces`, { title: 'Once' }, 'create-once');
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await post(t, alice, `/v1/orgs/${org}/spaces`, { title: 'Once' }, 'create-once');
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(again.headers['content-type']).toBe(first.headers['content-type']);
    expect(await spaceCount('Once')).toBe(1);
  });

  it('the same key with a different body, path or method is a 422 and changes nothing', async () => {
    expect((await post(t, alice, `/v1/orgs/${org}/spaces`, { title: 'Keyed' }, 'k-422')).status).toBe(201);
    const other = await post(t, alice, `/v1/orgs/${org}/spaces`, { title: 'Other body' }, 'k-422');
    expect(other.status).toBe(422);
    expect(other.body).toEqual({ error: { code: 422, message: expect.stringContaining('different request') } });
    expect(await spaceCount('Other body')).toBe(0);
    const space = (await post(t, alice, `/v1/orgs/${org}/spaces`, { title: 'Keyed' }, 'k-422')).body.id;
    const patch = await request(t.app.getHttpServer()).patch(`/v1/spaces/${space}`).set('Authorization', `Bearer ${alice.token}`).set('Idempotency-Key', 'k-422').send({ title: 'Keyed' });
    expect(patch.status).toBe(422);
  });

  it('works on PATCH, and stores client errors too (a repeat of a 400 is the same 400)', async () => {
    const space = (await post(t, alice, `/v1/orgs/${org}/spaces`, { title: 'Patched' })).body.id;
    const patch = (key: string, body: object) => request(t.app.getHttpServer()).patch(`/v1/spaces/${space}`).set('Authorization', `Bearer ${alice.token}`).set('Idempotency-Key', key).send(body);
    const first = await patch('p-1', { title: 'Patched once' });
    expect(first.status).toBe(200);
    // Someone else changes it meanwhile: the replay still answers what the first request did.
    await request(t.app.getHttpServer()).patch(`/v1/spaces/${space}`).set('Authorization', `Bearer ${alice.token}`).send({ title: 'Changed since' });
    const replay = await patch('p-1', { title: 'Patched once' });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body.title).toBe('Patched once');
    expect(replay.headers.etag).toBe(first.headers.etag);
    const bad = await patch('p-2', { title: '' });
    expect(bad.status).toBe(400);
    const badAgain = await patch('p-2', { title: '' });
    expect(badAgain.status).toBe(400);
    expect(badAgain.headers['idempotent-replayed']).toBe('true');
  });

  it('keys belong to their token: the same key from another user is another request', async () => {
    const a = await post(t, alice, `/v1/orgs/${org}/spaces`, { title: 'Per token' }, 'shared-key');
    const b = await post(t, bob, `/v1/orgs/${org}/spaces`, { title: 'Per token' }, 'shared-key');
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(b.headers['idempotent-replayed']).toBeUndefined();
    expect(b.body.id).not.toBe(a.body.id);
  });

  it('a repeat while the first is still running is a 409; after it finishes, a replay', async () => {
    // Hold the first request inside its transaction: the spaces table is locked by the test.
    const runner = await lockSpaces(t);
    let first: Promise<request.Response> | null = null;
    try {
      first = post(t, alice, `/v1/orgs/${org}/spaces`, { title: 'Held' }, 'held-key').then((r) => r);
      await untilWaitingOnSpaces(t);
      const during = await Promise.all([1, 2, 3].map(() => post(t, alice, `/v1/orgs/${org}/spaces`, { title: 'Held' }, 'held-key')));
      expect(during.map((r) => r.status)).toEqual([409, 409, 409]);
      expect(during[0].body.error.message).toContain('in progress');
    } finally {
      await runner.commitTransaction();
      await runner.release();
    }
    const done = await first!;
    expect(done.status).toBe(201);
    const after = await post(t, alice, `/v1/orgs/${org}/spaces`, { title: 'Held' }, 'held-key');
    expect(after.status).toBe(201);
    expect(after.body.id).toBe(done.body.id);
    expect(await spaceCount('Held')).toBe(1);
  });

  // Holds the database store's write with a row lock; the Redis store's variant, below, pauses its own Redis's writes.
  (testRedisUrl() ? it.skip : it)('an answer goes out only once it is stored, so a retry right after it is a replay', async () => {
    const spaces = await lockSpaces(t);
    const keys = t.dataSource.createQueryRunner();
    await keys.connect();
    let arrived = false;
    let first: Promise<request.Response> | null = null;
    try {
      const server = serverSide(t, 'stored-key');
      first = post(t, alice, `/v1/orgs/${org}/spaces`, { title: 'Stored first' }, 'stored-key').then((r) => {
        arrived = true;
        return r;
      });
      await untilWaitingOnSpaces(t);
      await keys.startTransaction();
      expect(await keys.query(`SELECT key FROM idempotency_keys WHERE answer IS NULL FOR UPDATE`)).toHaveLength(1);
      await spaces.commitTransaction();
      await until('the answer to wait on the key row', async () => {
        const rows = await t.dataSource.query(`SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'UPDATE idempotency_keys%'`);
        return Number(rows[0].count) > 0;
      }, 10000);
      // Its answer is being stored (the write waits on our lock): nothing may have been written to the client yet.
      expect(server.answered()).toBe(false);
      expect(arrived).toBe(false);
    } finally {
      if (spaces.isTransactionActive) await spaces.rollbackTransaction();
      if (keys.isTransactionActive) await keys.commitTransaction();
      await spaces.release();
      await keys.release();
    }
    const done = await first!;
    expect(done.status).toBe(201);
    const retry = await post(t, alice, `/v1/orgs/${org}/spaces`, { title: 'Stored first' }, 'stored-key');
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body.id).toBe(done.body.id);
  });

  it('under a burst of identical requests, exactly one write happens and every success is the same answer', async () => {
    const burst = await Promise.all(Array.from({ length: 12 }, () => post(t, alice, `/v1/orgs/${org}/spaces`, { title: 'Burst' }, 'burst-key')));
    const statuses = burst.map((r) => r.status);
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    const ids = new Set(burst.filter((r) => r.status === 201).map((r) => r.body.id));
    expect(ids.size).toBe(1);
    expect(await spaceCount('Burst')).toBe(1);
  });

  /** Keys the store holds that expire within 1.5 s (what the short-lived replica below stores). */
  const shortLived = async (): Promise<number> => {
    if (t.config.jobsBackend !== 'redis') {
      return Number((await t.dataSource.query(`SELECT count(*) FROM idempotency_keys WHERE expires_at > now() AND expires_at <= now() + interval '1500 milliseconds'`))[0].count);
    }
    const redis = new Redis(t.config.redisUrl);
    try {
      const ttls = await Promise.all((await redis.keys(`${t.config.queuePrefix}:idem:*`)).map((key) => redis.pttl(key)));
      return ttls.filter((ms) => ms > 0 && ms <= 1500).length;
    } finally {
      redis.disconnect();
    }
  };

  it('is shared by the replicas of one deployment, and a key is free again once it expires', async () => {
    const replica = await TestApp.start({ databaseUrl: t.config.databaseUrl, queuePrefix: t.config.queuePrefix, idempotency: { enabled: true, ttlMs: 1500 } });
    try {
      const first = await post(t, alice, `/v1/orgs/${org}/spaces`, { title: 'Replicated' }, 'replica-key');
      const second = await post(replica, alice, `/v1/orgs/${org}/spaces`, { title: 'Replicated' }, 'replica-key');
      expect(second.headers['idempotent-replayed']).toBe('true');
      expect(second.body.id).toBe(first.body.id);
      // The replica stores with a 1.5 s lifetime.
      const short = await post(replica, alice, `/v1/orgs/${org}/spaces`, { title: 'Short-lived' }, 'short-key');
      await until('the 1.5 s key to expire in the store', async () => (await shortLived()) === 0, 15000);
      const later = await post(replica, alice, `/v1/orgs/${org}/spaces`, { title: 'Short-lived' }, 'short-key');
      expect(later.headers['idempotent-replayed']).toBeUndefined();
      expect(later.body.id).not.toBe(short.body.id);
    } finally {
      await replica.close();
    }
  });

  /** Everything the store holds now, as text (Redis values or rows of idempotency_keys). */
  const stored = async (): Promise<string> => {
    if (t.config.jobsBackend !== 'redis') return JSON.stringify(await t.dataSource.query('SELECT key, fingerprint, answer FROM idempotency_keys'));
    const redis = new Redis(t.config.redisUrl);
    try {
      const keys = await redis.keys(`${t.config.queuePrefix}:idem:*`);
      return JSON.stringify(keys.length ? await redis.mget(keys) : []);
    } finally {
      redis.disconnect();
    }
  };

  it('authenticates before it replays: a revoked token or a disabled user gets 401, never the stored answer', async () => {
    for (const disable of ['revoke the token', 'disable the user']) {
      const carol = await t.user('Carol');
      const own = await t.organization(carol);
      const site = (await post(t, carol, `/v1/orgs/${own}/sites`, { title: 'Shared' })).body.id;
      const link = () => post(t, carol, `/v1/orgs/${own}/sites/${site}/share-links`, { name: 'Partners' }, 'link-once');
      const first = await link();
      expect(first.status).toBe(201);
      expect((await link()).headers['idempotent-replayed']).toBe('true');
      if (disable === 'revoke the token') await t.changeAuth(`UPDATE api_tokens SET expires_at = '2000-01-01' WHERE user_id = $1`, [carol.id]);
      else await t.changeAuth(`UPDATE users SET disabled_at = now() WHERE id = $1`, [carol.id]);
      const after = await link();
      expect([disable, after.status, after.headers['idempotent-replayed']]).toEqual([disable, 401, undefined]);
      expect(JSON.stringify(after.body)).not.toContain(first.body.urls.published);
    }
  });

  it('stores answers sealed: a share-link key shown once is nowhere in the store, yet the replay shows it', async () => {
    const site = (await post(t, alice, `/v1/orgs/${org}/sites`, { title: 'Sealed' })).body.id;
    const first = await post(t, alice, `/v1/orgs/${org}/sites/${site}/share-links`, { name: 'Sealed' }, 'sealed-link');
    const key = first.body.urls.published.split('/').pop() as string;
    expect(key).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const everything = await stored();
    expect(everything).toMatch(/status\W+201/);
    expect(everything).not.toContain(key);
    expect(everything).not.toContain('Sealed');
    const again = await post(t, alice, `/v1/orgs/${org}/sites/${site}/share-links`, { name: 'Sealed' }, 'sealed-link');
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.urls.published).toBe(first.body.urls.published);
  });

  it('refuses malformed keys; requests without a key are unaffected', async () => {
    expect((await post(t, alice, `/v1/orgs/${org}/spaces`, { title: 'Bad key' }, 'x'.repeat(256))).status).toBe(400);
    expect((await post(t, alice, `/v1/orgs/${org}/spaces`, { title: 'Bad key' }, 'has space')).status).toBe(400);
    expect(await spaceCount('Bad key')).toBe(0);
    expect((await post(t, alice, `/v1/orgs/${org}/spaces`, { title: 'No key' })).status).toBe(201);
    expect((await post(t, alice, `/v1/orgs/${org}/spaces`, { title: 'No key' })).status).toBe(201);
    expect(await spaceCount('No key')).toBe(2);
  });
});

describe('Idempotency-Key in the served OpenAPI document', () => {
  it('is declared on every POST and PATCH, with the replay header and the 409 and 422 answers', async () => {
    const t = await TestApp.start();
    try {
      const doc = (await request(t.app.getHttpServer()).get('/openapi.json')).body;
      let writes = 0;
      for (const item of Object.values<any>(doc.paths)) {
        for (const method of ['post', 'patch']) {
          const operation = item[method];
          if (!operation || item.servers) continue;
          writes++;
          expect(operation.parameters.some((p: any) => p.in === 'header' && p.name === 'Idempotency-Key')).toBe(true);
          expect(operation.responses['422']).toEqual({ $ref: '#/components/responses/Error422' });
          expect(operation.responses['409']).toBeDefined();
        }
      }
      expect(writes).toBeGreaterThan(50);
      expect(JSON.stringify(doc.paths['/orgs/{organizationId}/spaces'].post.responses['201'].headers)).toContain('Idempotent-Replayed');
    } finally {
      await t.close();
    }
  });
});

describeWithRedis('Idempotency-Key on the Redis store', () => {
  let redis: OwnRedis;
  let t: TestApp;
  let alice: TestUser;
  let org: string;

  beforeAll(async () => {
    // A Redis of the test's own: pausing its writes must not stall other test files.
    redis = await OwnRedis.create();
    await redis.start();
    t = await TestApp.start({ jobsBackend: 'redis', redisUrl: redis.url });
    alice = await t.user('Alice');
    org = await t.organization(alice);
  });
  afterAll(async () => {
    await t.close();
    await redis.stop();
  });

  it('an answer goes out only once it is stored, so a retry right after it is a replay', async () => {
    const create = () =>
      request(t.app.getHttpServer()).post(`/v1/orgs/${org}/spaces`).set('Authorization', `Bearer ${alice.token}`).set('Idempotency-Key', 'paused-key').send({ title: 'Paused' });
    const spaces = await lockSpaces(t);
    const admin = new Redis(redis.url);
    let arrived = false;
    let first: Promise<request.Response> | null = null;
    try {
      const server = serverSide(t, 'paused-key');
      first = create().then((r) => {
        arrived = true;
        return r;
      });
      await untilWaitingOnSpaces(t);
      await admin.call('CLIENT', 'PAUSE', '20000', 'WRITE');
      await spaces.commitTransaction();
      await until('the space to be written', async () => Number((await t.dataSource.query(`SELECT count(*) FROM spaces WHERE title = 'Paused'`))[0].count) === 1, 10000);
      // The answer's write to Redis is held by the pause: nothing may have been written to the client yet.
      await until('the answer to wait on the paused Redis', async () => /blocked_clients:[1-9]/.test(String(await admin.info('clients'))), 10000);
      expect(server.answered()).toBe(false);
      expect(arrived).toBe(false);
    } finally {
      await admin.call('CLIENT', 'UNPAUSE');
      admin.disconnect();
      if (spaces.isTransactionActive) await spaces.rollbackTransaction();
      await spaces.release();
    }
    const done = await first!;
    expect(done.status).toBe(201);
    const retry = await create();
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body.id).toBe(done.body.id);
  });
});

/**
 * The server's side of the next request carrying Idempotency-Key `key`: whether its answer has begun
 * to go out. Asked at a moment the test holds still (a lock, a paused Redis), it needs no waiting.
 */
function serverSide(app: TestApp, key: string): { answered(): boolean } {
  const server = app.app.getHttpServer();
  let response: ServerResponse | undefined;
  const listener = (req: IncomingMessage, res: ServerResponse) => {
    if (req.headers['idempotency-key'] !== key) return;
    response = res;
    server.off('request', listener);
  };
  server.on('request', listener);
  return {
    answered: () => {
      if (!response) throw new Error(`no request with Idempotency-Key ${key} reached the server`);
      return response.headersSent;
    },
  };
}

/** Holds the spaces table, so that a request creating a space waits inside its transaction until the runner ends. */
async function lockSpaces(app: TestApp): Promise<QueryRunner> {
  const runner = app.dataSource.createQueryRunner();
  await runner.connect();
  await runner.startTransaction();
  await runner.query('LOCK TABLE spaces IN EXCLUSIVE MODE');
  return runner;
}

function untilWaitingOnSpaces(app: TestApp): Promise<unknown> {
  return until('a request to wait on the spaces lock', async () => {
    const waiting = await app.dataSource.query(`SELECT count(*) FROM pg_locks WHERE NOT granted AND relation = 'spaces'::regclass`);
    return Number(waiting[0].count) > 0;
  }, 10000);
}
