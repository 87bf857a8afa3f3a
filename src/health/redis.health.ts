import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { APP_CONFIG, AppConfig } from '@app/common';
import { RedisClient, redisClient } from '../core/redis/redis-client';

@Injectable()
export class RedisHealthIndicator implements OnModuleDestroy {
  private readonly redis: RedisClient;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly indicator: HealthIndicatorService,
  ) {
    this.redis = redisClient(config, { lazyConnect: true, maxRetriesPerRequest: 1, enableOfflineQueue: false });
    this.redis.on('error', () => undefined);
  }

  async check(key: string) {
    const check = this.indicator.check(key);
    try {
      if (this.redis.status === 'wait' || this.redis.status === 'end') await this.redis.connect();
      await withTimeout(this.redis.ping(), 1000);
      return check.up();
    } catch (error) {
      return check.down({ message: (error as Error).message });
    }
  }

  onModuleDestroy(): void {
    this.redis.disconnect();
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return Promise.race([promise, new Promise<T>((_, reject) => setTimeout(() => reject(new Error('timeout')), ms).unref())]);
}
