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
