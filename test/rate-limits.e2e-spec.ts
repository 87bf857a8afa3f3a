import request from 'supertest';
import { AppConfig } from '@app/common';
import { TestApp, TestUser } from '@app/testing';
import { RateLimiter } from '../src/core/rate-limits/rate-limiter';
import { commitContent } from './content.fixtures';

const budgets = (overrides: Partial<AppConfig['rateLimits']>): Partial<AppConfig> => ({
  rateLimits: { enabled: true, windowSeconds: 60, tokenReads: 5, tokenWrites: 2, addressReads: 1000, addressWrites: 1000, readerPages: 1000, readerSearches: 1000, ...overrides },
});

/** Request budgets, counted in the shared store (Redis, or PostgreSQL in embedded mode). */
describe('rate limits', () => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  const get = (app: TestApp, user: TestUser | null, path = '/v1/user') => {
    const req = request(app.app.getHttpServer()).get(path);
    return user ? req.set('Authorization', `Bearer ${user.token}`) : req;
  };

  beforeAll(async () => {
    t = await TestApp.start(budgets({}));
    [alice, bob] = [await t.user('Alice'), await t.user('Bob')];
  });
  afterAll(() => t.close());

  it('counts reads per token, says where the budget stands on every answer, and refuses over it with 429 and Retry-After', async () => {
    const remaining: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await get(t, alice);
      expect(res.status).toBe(200);
      expect(res.headers['x-ratelimit-limit']).toBe('5');
      remaining.push(res.headers['x-ratelimit-remaining']);
      expect(Number(res.headers['x-ratelimit-reset'])).toBeGreaterThan(Date.now() / 1000);
    }
    expect(remaining).toEqual(['4', '3', '2', '1', '0']);
    const refused = await get(t, alice);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: { code: 429, message: expect.stringContaining('Too many requests') } });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');
    // another token has its own budget
    expect((await get(t, bob)).status).toBe(200);
  });

  it('counts writes apart from reads', async () => {
    const carol = await t.user('Carol');
    const write = () => request(t.app.getHttpServer()).post('/v1/orgs').set('Authorization', `Bearer ${carol.token}`).send({ title: 'Write budget' });
    expect((await write()).status).toBe(201);
    expect((await write()).status).toBe(201);
    const third = await write();
    expect(third.status).toBe(429);
    expect(third.headers['x-ratelimit-limit']).toBe('2');
    expect((await get(t, carol)).status).toBe(200);
  });

  it('counts per client address too, whatever the token', async () => {
    const app = await TestApp.start(budgets({ tokenReads: 1000, addressReads: 3 }));
    try {
      const users = [await app.user(), await app.user(), await app.user(), await app.user()];
      const statuses = [];
      for (const user of users) statuses.push((await get(app, user)).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      expect((await get(app, null)).status).toBe(429);
    } finally {
      await app.close();
    }
  });

  it('reads the client address from X-Forwarded-For only behind a trusted proxy (TRUST_PROXY)', async () => {
    for (const trustProxy of [false, 1] as const) {
      const app = await TestApp.start({ ...budgets({ tokenReads: 1000, addressReads: 2 }), trustProxy });
      try {
        const user = await app.user();
        const from = (address: string) => request(app.app.getHttpServer()).get('/v1/user').set('Authorization', `Bearer ${user.token}`).set('X-Forwarded-For', address);
        const statuses = [(await from('203.0.113.1')).status, (await from('203.0.113.1')).status, (await from('203.0.113.2')).status];
        // Trusted, each forwarded address has its own budget; not trusted, they all share the proxy's.
        expect([trustProxy, statuses]).toEqual([trustProxy, trustProxy ? [200, 200, 200] : [200, 200, 429]]);
      } finally {
        await app.close();
      }
    }
  });

  it('is shared by the replicas of one deployment (same store)', async () => {
    const dave = await t.user('Dave');
    const replica = await TestApp.start({ ...budgets({}), databaseUrl: t.config.databaseUrl, queuePrefix: t.config.queuePrefix });
    try {
      for (let i = 0; i < 3; i++) expect((await get(t, dave)).status).toBe(200);
      // Far from the limit a replica settles its counts with the store in batches (every 50 ms): settle them now.
      await t.get<RateLimiter>(RateLimiter).settle();
      expect((await get(replica, dave)).headers['x-ratelimit-remaining']).toBe('1');
      expect((await get(replica, dave)).status).toBe(200);
      expect((await get(t, dave)).status).toBe(429);
    } finally {
      await replica.close();
    }
  });

  it("gives a published site's anonymous readers a budget per address, pages and searches apart: 429 page with Retry-After", async () => {
    const app = await TestApp.start(budgets({ tokenReads: 1000, tokenWrites: 1000, readerPages: 6, readerSearches: 2 }));
    try {
      const owner = await app.user('Owner');
      const org = await app.organization(owner);
      const space = (await owner.client.post<any>(`/v1/orgs/${org}/spaces`, { title: 'Docs' })).body.id;
      await commitContent(app, space, [{ id: 'home', title: 'Home', slug: 'home', body: 'Welcome home.' }]);
      const site = (await owner.client.post<any>(`/v1/orgs/${org}/sites`, { title: 'Docs', spaces: [space] })).body.id;
      await owner.client.must.patch(`/v1/orgs/${org}/sites/${site}`, { basename: 'limited' });
      await owner.client.must.post(`/v1/orgs/${org}/sites/${site}/publish`);
      const read = (path: string) => request(app.app.getHttpServer()).get(path);
      const searches = [await read('/sites/limited/~search?q=home'), await read('/sites/limited/~search?q=home'), await read('/sites/limited/~search?q=home')];
      expect(searches.map((r) => r.status)).toEqual([200, 200, 429]);
      const pages = [];
      for (let i = 0; i < 7; i++) pages.push((await read('/sites/limited/home')).status);
      expect(pages).toEqual([200, 200, 200, 200, 200, 200, 429]);
      const refused = await read('/sites/limited/home');
      expect(refused.status).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(refused.headers['content-type']).toContain('text/html');
      expect(refused.text).toContain('Too many requests');
    } finally {
      await app.close();
    }
  });

  it('is declared in the served OpenAPI document', async () => {
    const doc = (await request(t.app.getHttpServer()).get('/openapi.json')).body;
    const operation = doc.paths['/spaces/{spaceId}'].get;
    expect(operation.responses['429']).toEqual({ $ref: '#/components/responses/Error429' });
    expect(Object.keys(operation.responses['200'].headers)).toEqual(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']);
    expect(doc.components.headers['X-RateLimit-Reset'].description).toContain('epoch seconds');
  });
});
