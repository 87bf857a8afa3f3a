import { loadConfig } from './config.schema';

describe('scale-out configuration', () => {
  it('reads a Redis Cluster from REDIS_CLUSTER_NODES, which also puts the jobs on Redis', () => {
    const config = loadConfig({ REDIS_CLUSTER_NODES: 'redis-a:7000, redis-b.internal:7001,10.0.0.3:7002', REDIS_PASSWORD: 'pw', REDIS_TLS: 'true' });
    expect(config.redisCluster).toEqual({
      nodes: [
        { host: 'redis-a', port: 7000 },
        { host: 'redis-b.internal', port: 7001 },
        { host: '10.0.0.3', port: 7002 },
      ],
      password: 'pw',
      tls: true,
      tlsCaFile: undefined,
    });
    expect(config.jobsBackend).toBe('redis');
    expect(loadConfig({ REDIS_CLUSTER_NODES: 'a:1', REDIS_TLS_CA_FILE: '/etc/ca.pem' }).redisCluster).toMatchObject({ tls: true, tlsCaFile: '/etc/ca.pem' });
    expect(loadConfig({}).redisCluster).toBeUndefined();
    expect(() => loadConfig({ REDIS_CLUSTER_NODES: 'redis-a' })).toThrow(/REDIS_CLUSTER_NODES.*host:port/);
  });

  it('needs a bucket for FILES_BACKEND=s3, and keeps the local disk by default', () => {
    expect(loadConfig({}).filesBackend).toBe('local');
    expect(() => loadConfig({ FILES_BACKEND: 's3' })).toThrow(/S3_BUCKET/);
    expect(loadConfig({ FILES_BACKEND: 's3', S3_BUCKET: 'docs-files', S3_FORCE_PATH_STYLE: 'true' }).s3).toMatchObject({ bucket: 'docs-files', region: 'us-east-1', forcePathStyle: true, redirectDownloads: false });
    expect(loadConfig({ FILES_BACKEND: 's3', S3_BUCKET: 'docs-files', S3_REDIRECT_DOWNLOADS: 'true' }).s3.redirectDownloads).toBe(true);
    expect(() => loadConfig({ FILES_BACKEND: 's3', S3_BUCKET: 'docs-files', S3_REDIRECT_DOWNLOADS: 'sometimes' })).toThrow(/S3_REDIRECT_DOWNLOADS/);
    expect(() => loadConfig({ FILES_BACKEND: 'gcs' })).toThrow(/FILES_BACKEND/);
  });

  it('goes direct for LISTEN unless DATABASE_DIRECT_URL says where, and names statements unless told not to', () => {
    const pooled = 'postgres://docs@pgbouncer:6432/docs';
    expect(loadConfig({ DATABASE_URL: pooled })).toMatchObject({ databaseDirectUrl: pooled, dbPreparedStatements: true });
    expect(loadConfig({ DATABASE_URL: pooled, DATABASE_DIRECT_URL: 'postgres://docs@db:5432/docs', DB_PREPARED_STATEMENTS: 'false' })).toMatchObject({
      databaseDirectUrl: 'postgres://docs@db:5432/docs',
      dbPreparedStatements: false,
    });
  });

  it('remembers tokens for TOKEN_CACHE_SECONDS (60 by default, 0 for never) and refuses a bad value', () => {
    expect(loadConfig({}).tokenCacheMs).toBe(60_000);
    expect(loadConfig({ TOKEN_CACHE_SECONDS: '0' }).tokenCacheMs).toBe(0);
    expect(loadConfig({ TOKEN_CACHE_SECONDS: '2.5' }).tokenCacheMs).toBe(2500);
    for (const bad of ['-1', '3601', 'soon']) expect(() => loadConfig({ TOKEN_CACHE_SECONDS: bad })).toThrow(/TOKEN_CACHE_SECONDS/);
  });
});
