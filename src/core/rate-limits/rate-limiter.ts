import { driverPool } from '../../database/pool-reads';
import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { RedisClient, redisClient } from '../redis/redis-client';
import { RateLimiterAbstract, RateLimiterMemory, RateLimiterPostgres, RateLimiterRedis } from 'rate-limiter-flexible';
import { BatchedBudget, BudgetCheck } from './batched-budget';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from '@app/common';

export type RequestKind = 'read' | 'write';

/** What a request's budgets say: the tightest of them is what the client is told. */
export interface Verdict {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** When the tightest budget starts over (epoch seconds). */
  reset: number;
  /** Seconds to wait, when refused. */
  retryAfter: number;
}

const BUDGETS = ['tokenReads', 'tokenWrites', 'addressReads', 'addressWrites', 'readerPages', 'readerSearches'] as const;
type Budget = (typeof BUDGETS)[number];

/**
 * Request budgets per API token and per client address, reads and writes apart, counted in the
 * store every replica shares: Redis when jobs run on Redis, the `rate_limits` table of PostgreSQL
 * otherwise (embedded mode). Built on first use, so processes that serve no API hold no connection.
 * If the store fails, each process counts in memory meanwhile (rate-limiter-flexible's insurance
 * limiter) rather than refusing or letting everything through. Far from a limit, counts are
 * settled with the store in batches (BatchedBudget), so most requests cost no round trip.
 */
@Injectable()
export class RateLimiter implements OnModuleDestroy {
  private readonly logger = new Logger(RateLimiter.name);
  private budgets: Record<Budget, BatchedBudget> | null = null;
  private redis: RedisClient | null = null;
  /** The first requests wait (a bounded time) for Redis to be ready, so they count in the shared store, not in memory. */
  private connecting: Promise<void> | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly dataSource: DataSource,
  ) {}

  get enabled(): boolean {
    return this.config.rateLimits.enabled;
  }

  async consume(kind: RequestKind, tokenKey: string | null, address: string): Promise<Verdict> {
    return this.check(this.checksOf(kind, tokenKey, address));
  }

  /**
   * The verdict without waiting, when every budget of the request counts it in memory (far from
   * its limit: most requests); null when one must ask the store, and then nothing was counted.
   */
  consumeNow(kind: RequestKind, tokenKey: string | null, address: string): Verdict | null {
    if (this.connecting) return null;
    const checks = this.checksOf(kind, tokenKey, address);
    const now = Date.now();
    if (!checks.every(([budget, key]) => budget.countsLocally(key, now))) return null;
    return verdictOf(checks.map(([budget, key]) => budget.consumeLocally(key, now)), now);
  }

  private checksOf(kind: RequestKind, tokenKey: string | null, address: string): Array<[BatchedBudget, string]> {
    const budgets = this.build();
    const checks: Array<[BatchedBudget, string]> = [[budgets[kind === 'read' ? 'addressReads' : 'addressWrites'], address]];
    if (tokenKey) checks.push([budgets[kind === 'read' ? 'tokenReads' : 'tokenWrites'], tokenKey]);
    return checks;
  }

  /** Published sites' readers, per client address: pages (and their files) and searches apart. */
  async consumeReader(kind: 'page' | 'search', address: string): Promise<Verdict> {
    const budgets = this.build();
    return this.check([[budgets[kind === 'page' ? 'readerPages' : 'readerSearches'], address]]);
  }

  private async check(checks: Array<[BatchedBudget, string]>): Promise<Verdict> {
    if (this.connecting) await this.connecting;
    const results = await Promise.all(checks.map(([budget, key]) => budget.consume(key)));
    return verdictOf(results, Date.now());
  }

  /** Adds what this process counted locally to the shared store now (it does so every 50 ms anyway). */
  async settle(): Promise<void> {
    if (this.budgets) await Promise.all(Object.values(this.budgets).map((b) => b.settle()));
  }

  async onModuleDestroy(): Promise<void> {
    // What was counted locally reaches the store before the connection closes.
    if (this.budgets) await Promise.all(Object.values(this.budgets).map((b) => b.stop().catch(() => undefined)));
    await this.redis?.quit().catch(() => undefined);
  }

  private build(): Record<Budget, BatchedBudget> {
    if (this.budgets) return this.budgets;
    const { rateLimits, queuePrefix } = this.config;
    const make = (budget: Budget): RateLimiterAbstract => {
      // One hash tag per limiter: on a Redis Cluster its scripts never cross slots.
      const options = { points: rateLimits[budget], duration: rateLimits.windowSeconds, keyPrefix: `{${queuePrefix}:rl:${budget}}` };
      const insuranceLimiter = new RateLimiterMemory(options);
      if (this.config.jobsBackend === 'redis') {
        return new RateLimiterRedis({ ...options, storeClient: this.redisClient(), insuranceLimiter });
      }
      const pool = driverPool(this.dataSource);
      return new RateLimiterPostgres({ ...options, storeClient: pool, storeType: 'pool', tableName: 'rate_limits', tableCreated: true, insuranceLimiter });
    };
    const batched = (budget: Budget) => new BatchedBudget(make(budget), rateLimits[budget]);
    this.budgets = Object.fromEntries(BUDGETS.map((budget) => [budget, batched(budget)])) as Record<Budget, BatchedBudget>;
    return this.budgets;
  }

  private redisClient(): RedisClient {
    if (!this.redis) {
      // No offline queue: while Redis is away a check fails at once and the in-memory insurance counts.
      const redis = redisClient(this.config, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
      redis.on('error', (error: Error) => this.logger.warn(`rate-limit store unavailable (${error.message}); counting in memory`));
      this.redis = redis;
      this.connecting = new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          this.connecting = null;
          resolve();
        };
        const timer = setTimeout(done, 2000);
        redis.once('ready', done);
      });
    }
    return this.redis;
  }
}

/** The budget closest to running out decides what the client is told. */
function verdictOf(results: BudgetCheck[], now: number): Verdict {
  const tightest = results.reduce((a, b) => (!b.allowed && a.allowed ? b : a.allowed === b.allowed && b.remaining < a.remaining ? b : a));
  return {
    allowed: results.every((r) => r.allowed),
    limit: tightest.limit,
    remaining: tightest.remaining,
    reset: Math.ceil((now + tightest.msBeforeNext) / 1000),
    retryAfter: Math.max(1, Math.ceil(tightest.msBeforeNext / 1000)),
  };
}
