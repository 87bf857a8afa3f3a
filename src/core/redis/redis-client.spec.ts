import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis, { Cluster } from 'ioredis';
import { describeRedis, redisClient } from './redis-client';

describe('redisClient', () => {
  it("connects to REDIS_URL's node, or to the cluster with its password and TLS (and the CA file's certificates)", () => {
    const dir = mkdtempSync(join(tmpdir(), 'redis-ca-'));
    writeFileSync(join(dir, 'ca.pem'), 'PEM');
    try {
      const single = redisClient({ redisUrl: 'redis://cache:6380' }, { lazyConnect: true });
      expect(single).toBeInstanceOf(Redis);
      single.disconnect();
      const nodes = [{ host: 'redis-1', port: 7000 }];
      const cluster = redisClient({ redisUrl: 'redis://unused:6379', redisCluster: { nodes, password: 'pw', tls: true, tlsCaFile: join(dir, 'ca.pem') } }, { lazyConnect: true, maxRetriesPerRequest: null });
      expect(cluster).toBeInstanceOf(Cluster);
      const options = (cluster as Cluster).options.redisOptions!;
      expect([options.password, options.maxRetriesPerRequest, String(options.tls?.ca)]).toEqual(['pw', null, 'PEM']);
      cluster.disconnect();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('names where Redis is for logs without the password', () => {
    expect(describeRedis({ redisUrl: 'redis://user:secret@cache:6380/1' })).toBe('REDIS_URL (redis://user@cache:6380/1)');
    expect(describeRedis({ redisUrl: 'redis://x', redisCluster: { nodes: [{ host: 'a', port: 1 }, { host: 'b', port: 2 }], password: 'secret', tls: false } })).toBe('REDIS_CLUSTER_NODES (a:1,b:2)');
  });
});
