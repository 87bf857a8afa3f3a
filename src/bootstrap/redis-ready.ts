import { setTimeout as sleep } from 'node:timers/promises';
import { LoggerService } from '@nestjs/common';
import { RedisTarget, describeRedis, redisClient } from '../core/redis/redis-client';
import { describeCause } from './startup-error';

/**
 * Waits until Redis (REDIS_URL, or REDIS_CLUSTER_NODES) answers a PING, saying so every `logEveryMs` while it does not. The worker
 * calls this before building its queues: BullMQ would otherwise wait for Redis without a word.
 */
export async function waitForRedis(target: RedisTarget, log: LoggerService, options: { retryMs?: number; logEveryMs?: number } = {}): Promise<void> {
  const retryMs = options.retryMs ?? 1000;
  const logEveryMs = options.logEveryMs ?? 5000;
  let lastLogged = 0;
  for (;;) {
    const client = redisClient(target, { lazyConnect: true, connectTimeout: 2000, maxRetriesPerRequest: 0, retryStrategy: () => null });
    let refused: unknown; // ioredis rejects connect() with "Connection is closed"; the socket error says why
    client.on('error', (error) => (refused = error));
    try {
      await client.connect();
      await client.ping();
      if (lastLogged) log.log(`Redis at ${describeRedis(target)} answers`, 'Redis');
      return;
    } catch (error) {
      if (Date.now() - lastLogged >= logEveryMs) {
        log.warn(`Waiting for Redis at ${describeRedis(target)}: ${describeCause(refused ?? error)}`, 'Redis');
        lastLogged = Date.now();
      }
    } finally {
      client.disconnect();
    }
    await sleep(retryMs);
  }
}
