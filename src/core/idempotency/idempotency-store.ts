import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig, UnavailableError } from '@app/common';
import { RedisClient, redisClient } from '../redis/redis-client';

/** A finished answer, as it is replayed. */
export interface StoredAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export type Claim =
  | { state: 'claimed' }
  | { state: 'in-flight'; fingerprint: string }
  | { state: 'done'; fingerprint: string; answer: StoredAnswer };

interface KeyRecord {
  owner: string;
  fingerprint: string;
  answer?: StoredAnswer;
}

/**
 * Where `Idempotency-Key`s live, shared by every API replica: Redis when jobs run on Redis, the
 * `idempotency_keys` table otherwise (embedded mode). A key is claimed atomically (SET NX / INSERT
 * ... ON CONFLICT), so of two requests racing with one key exactly one runs.
 */
@Injectable()
export class IdempotencyStore implements OnModuleDestroy {
  private readonly logger = new Logger(IdempotencyStore.name);
  private redis: RedisClient | null = null;
  private firstConnection: Promise<boolean> | null = null;
  private everReady = false;
  private claims = 0;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly dataSource: DataSource,
  ) {}

  get enabled(): boolean {
    return this.config.idempotency.enabled;
  }

  async claim(key: string, owner: string, fingerprint: string): Promise<Claim> {
    const ttlMs = this.config.idempotency.ttlMs;
    if (this.config.jobsBackend === 'redis') {
      const redis = await this.readyClient();
      const fresh = JSON.stringify({ owner, fingerprint } satisfies KeyRecord);
      if ((await redis.set(this.redisKey(key), fresh, 'PX', ttlMs, 'NX')) === 'OK') return { state: 'claimed' };
      const existing = await redis.get(this.redisKey(key));
      // Expired between the two calls: try once more.
      if (!existing) return (await redis.set(this.redisKey(key), fresh, 'PX', ttlMs, 'NX')) === 'OK' ? { state: 'claimed' } : { state: 'in-flight', fingerprint };
      return toClaim(JSON.parse(existing) as KeyRecord);
    }
    if (++this.claims % 1000 === 0) void this.pruneExpired();
    const rows = (await this.dataSource.query(
      `INSERT INTO idempotency_keys (key, owner, fingerprint, answer, expires_at) VALUES ($1, $2, $3, NULL, now() + $4 * interval '1 millisecond')
       ON CONFLICT (key) DO UPDATE SET owner = EXCLUDED.owner, fingerprint = EXCLUDED.fingerprint, answer = NULL, expires_at = EXCLUDED.expires_at
         WHERE idempotency_keys.expires_at <= now()
       RETURNING owner`,
      [key, owner, fingerprint, ttlMs],
    )) as Array<{ owner: string }>;
    if (rows[0]?.owner === owner) return { state: 'claimed' };
    const [existing] = (await this.dataSource.query(`SELECT owner, fingerprint, answer FROM idempotency_keys WHERE key = $1`, [key])) as Array<KeyRecord>;
    return existing ? toClaim(existing) : { state: 'in-flight', fingerprint };
  }

  async complete(key: string, owner: string, fingerprint: string, answer: StoredAnswer): Promise<void> {
    const ttlMs = this.config.idempotency.ttlMs;
    if (this.config.jobsBackend === 'redis') {
      await this.client().set(this.redisKey(key), JSON.stringify({ owner, fingerprint, answer } satisfies KeyRecord), 'PX', ttlMs, 'XX');
      return;
    }
    await this.dataSource.query(`UPDATE idempotency_keys SET answer = $3 WHERE key = $1 AND owner = $2`, [key, owner, answer]);
  }

  /** Forgets a claim whose request did not finish with an answer worth replaying (5xx, 429, a dropped connection). */
  async release(key: string, owner: string): Promise<void> {
    if (this.config.jobsBackend === 'redis') {
      const redis = this.client();
      const existing = await redis.get(this.redisKey(key));
      if (existing && (JSON.parse(existing) as KeyRecord).owner === owner) await redis.del(this.redisKey(key));
      return;
    }
    await this.dataSource.query(`DELETE FROM idempotency_keys WHERE key = $1 AND owner = $2`, [key, owner]);
  }

  async onModuleDestroy(): Promise<void> {
    await this.redis?.quit().catch(() => undefined);
  }

  private async pruneExpired(): Promise<void> {
    await this.dataSource
      .query(`DELETE FROM idempotency_keys WHERE key IN (SELECT key FROM idempotency_keys WHERE expires_at <= now() LIMIT 10000)`)
      .catch((error: Error) => this.logger.warn(`expired idempotency keys not pruned: ${error.message}`));
  }

  private redisKey(key: string): string {
    return `${this.config.queuePrefix}:idem:${key}`;
  }

  /**
   * No offline queue: while Redis is away a command fails at once instead of waiting for it, and
   * a claim answers 503 with Retry-After (readyClient) before anything runs.
   */
  private client(): RedisClient {
    if (!this.redis) {
      this.redis = redisClient(this.config, { maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 2000 });
      this.redis.on('error', (error: Error) => this.logger.warn(`idempotency store unavailable: ${error.message}`));
    }
    return this.redis;
  }

  /** The client once it can take commands: the first connection is waited for (briefly); an outage is a 503 at once. */
  private async readyClient(): Promise<RedisClient> {
    const redis = this.client();
    if (redis.status === 'ready') {
      this.everReady = true;
      return redis;
    }
    if (!this.firstConnection) {
      this.firstConnection = new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), 2000);
        redis.once('ready', () => (clearTimeout(timer), resolve(true)));
      });
    }
    // Once it has been up, not being ready means an outage: no waiting then.
    if (!this.everReady && (await this.firstConnection)) {
      this.everReady = true;
      return redis;
    }
    throw UnavailableError.outage('The Idempotency-Key store (Redis) is unavailable; retry shortly, or send the request without the header');
  }
}

function toClaim(record: KeyRecord): Claim {
  return record.answer ? { state: 'done', fingerprint: record.fingerprint, answer: record.answer } : { state: 'in-flight', fingerprint: record.fingerprint };
}
