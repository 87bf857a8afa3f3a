import { readFileSync } from 'node:fs';
import Redis, { Cluster, RedisOptions } from 'ioredis';
import type { AppConfig } from '@app/common';
import { redactUrl } from '../../bootstrap/startup-error';

/** Where Redis is: REDIS_URL's one node, or REDIS_CLUSTER_NODES's cluster. */
export type RedisTarget = Pick<AppConfig, 'redisUrl' | 'redisCluster'>;
export type RedisClient = Redis | Cluster;

/**
 * Every Redis connection of the server is made here (BullMQ's, the rate limiter's, the idempotency
 * store's, the probes'), so all of them follow REDIS_CLUSTER_NODES when it is set. `options` are a
 * single node's; on a cluster they apply to each node, and the offline queue, lazy connect and
 * retry strategy to the cluster as a whole.
 */
export function redisClient(target: RedisTarget, options: RedisOptions = {}): RedisClient {
  const cluster = target.redisCluster;
  if (!cluster) return new Redis(target.redisUrl, options);
  const { lazyConnect, enableOfflineQueue, retryStrategy, ...perNode } = options;
  return new Cluster(cluster.nodes, {
    lazyConnect,
    enableOfflineQueue,
    clusterRetryStrategy: retryStrategy ? (times: number) => retryStrategy(times) : undefined,
    redisOptions: { ...perNode, password: cluster.password, tls: cluster.tls ? { ca: cluster.tlsCaFile ? readFileSync(cluster.tlsCaFile) : undefined } : undefined },
  });
}

/** For logs: the variable and where it points, never a password. */
export function describeRedis(target: RedisTarget): string {
  if (target.redisCluster) return `REDIS_CLUSTER_NODES (${target.redisCluster.nodes.map((node) => `${node.host}:${node.port}`).join(',')})`;
  return `REDIS_URL (${redactUrl(target.redisUrl)})`;
}
