import Redis from 'ioredis';

/**
 * Deletes every Redis key under a queue prefix (queues, schedulers, events) a test created. With
 * `match: 'prefix'`, every key whose name starts with `prefix` (all of a run's queue prefixes).
 */
export async function removeQueueKeys(redisUrl: string, prefix: string, options: { match?: 'queue' | 'prefix' } = {}): Promise<void> {
  if (!prefix.startsWith('docs_test_')) throw new Error(`refusing to delete keys under ${prefix}: not a test prefix`);
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1, lazyConnect: true, retryStrategy: () => null });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
  } catch {
    return; // a Redis that cannot be reached holds nothing this test wrote (the "Redis is down" tests)
  }
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', options.match === 'prefix' ? `${prefix}*` : `${prefix}:*`, 'COUNT', 1000);
      if (keys.length) await redis.unlink(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
