import { loadConfig } from './config.schema';

describe('job backend configuration', () => {
  it('defaults to PostgreSQL without REDIS_URL and to Redis with it', () => {
    expect(loadConfig({}).jobsBackend).toBe('postgres');
    expect(loadConfig({ REDIS_URL: 'redis://cache:6379' }).jobsBackend).toBe('redis');
  });

  it('follows JOBS_BACKEND when given, and refuses anything else', () => {
    expect(loadConfig({ REDIS_URL: 'redis://cache:6379', JOBS_BACKEND: 'postgres' }).jobsBackend).toBe('postgres');
    expect(() => loadConfig({ JOBS_BACKEND: 'sqs' })).toThrow(/JOBS_BACKEND/);
  });

  it('keeps /metrics off unless a long enough METRICS_TOKEN is set', () => {
    expect(loadConfig({}).metricsToken).toBeUndefined();
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/);
  });
});
