import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@app/common';
import { describeCause } from '../../bootstrap/startup-error';
import { RedisClient, describeRedis, redisClient } from '../../core/redis/redis-client';

const REPEAT_WHILE_DOWN_MS = 30_000;

/**
 * Says in the log when Redis stops or starts answering: one JSON warning naming REDIS_URL (never its
 * password) when it goes away, a reminder every 30 s while it stays away, one line when it is back.
 * The process keeps running meanwhile (the API serves what needs no queue; /health answers 503).
 * Only when jobs run on Redis.
 */
@Injectable()
export class RedisAvailability implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Redis');
  private probe?: RedisClient;
  private down = false;
  private lastReport = 0;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  onApplicationBootstrap(): void {
    if (this.config.jobsBackend !== 'redis') return;
    this.probe = redisClient(this.config, {
      maxRetriesPerRequest: null,
      retryStrategy: (times) => Math.min(times * 500, 5000),
    });
    this.probe.on('error', (error) => this.failed(error));
    this.probe.on('ready', () => this.answered());
  }

  onModuleDestroy(): void {
    this.probe?.disconnect();
  }

  private failed(error: unknown): void {
    const now = Date.now();
    if (this.down && now - this.lastReport < REPEAT_WHILE_DOWN_MS) return;
    this.down = true;
    this.lastReport = now;
    this.logger.warn(`Redis unreachable at ${describeRedis(this.config)}: ${describeCause(error)}; jobs wait until it answers`);
  }

  private answered(): void {
    if (!this.down) return;
    this.down = false;
    this.logger.log(`Redis at ${describeRedis(this.config)} answers again`);
  }
}
