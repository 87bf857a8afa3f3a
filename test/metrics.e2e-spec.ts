import request from 'supertest';
import { TestApp } from '@app/testing';
import { TestWorker } from '@app/testing/test-worker';
import { PurgeDeletedSpaces } from '../src/modules/spaces/application/space.jobs';

const TOKEN = 'metrics-token-0123456789';

describe('GET /metrics', () => {
  let t: TestApp;
  let worker: TestWorker;
  beforeAll(async () => {
    t = await TestApp.start({ metricsToken: TOKEN });
    worker = await TestWorker.start(t);
  });
  afterAll(async () => {
    await worker.close();
    await t.close();
  });

  it('needs the METRICS_TOKEN bearer', async () => {
    expect((await request(t.app.getHttpServer()).get('/metrics')).status).toBe(401);
    expect((await request(t.app.getHttpServer()).get('/metrics').set('Authorization', 'Bearer wrong-token-0123456789')).status).toBe(401);
  });

  it('reports request durations by route template and status, job runs by name and outcome, queue depth and pool use', async () => {
    const alice = await t.user();
    await alice.client.get('/v1/user');
    await alice.client.get('/v1/spaces/does-not-exist');
    await worker.run(PurgeDeletedSpaces, {});
    const res = await request(t.app.getHttpServer()).get('/metrics').set('Authorization', `Bearer ${TOKEN}`);
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/http_request_duration_seconds_count\{method="GET",route="\/v1\/user",status="200"\} \d+/);
    expect(res.text).toMatch(/http_request_duration_seconds_count\{method="GET",route="\/v1\/spaces\/:spaceId",status="404"\} \d+/);
    expect(res.text).not.toContain('does-not-exist');
    expect(res.text).toMatch(/jobs_total\{job="purge-deleted-spaces",outcome="completed"\} [1-9]/);
    expect(res.text).toMatch(/job_duration_seconds_count\{job="purge-deleted-spaces",outcome="completed"\} [1-9]/);
    expect(res.text).toMatch(/job_queue_depth\{queue="maintenance",state="completed"\} [1-9]/);
    expect(res.text).toMatch(/db_pool_connections\{state="total"\} \d+/);
  });
});

describe('GET /metrics without METRICS_TOKEN', () => {
  let t: TestApp;
  beforeAll(async () => (t = await TestApp.start({ metricsToken: undefined })));
  afterAll(() => t.close());

  it('does not exist', async () => {
    expect((await request(t.app.getHttpServer()).get('/metrics')).status).toBe(404);
  });
});
