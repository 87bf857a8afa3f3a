import { Controller, Get, Inject, ServiceUnavailableException } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, HealthIndicatorFunction, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { APP_CONFIG, AppConfig } from '@app/common';
import { Public } from '../modules/identity/api/auth.decorators';
import { RedisHealthIndicator } from './redis.health';

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly db: TypeOrmHealthIndicator,
    private readonly redis: RedisHealthIndicator,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  @Public()
  @HealthCheck()
  @ApiOperation({ summary: '200 when PostgreSQL (and Redis, when jobs run on Redis) answer, 503 otherwise' })
  async check() {
    const checks: HealthIndicatorFunction[] = [() => this.db.pingCheck('postgres', { timeout: 1000 })];
    if (this.config.jobsBackend === 'redis') checks.push(() => this.redis.check('redis'));
    try {
      return await this.health.check(checks);
    } catch (error) {
      if (!(error instanceof ServiceUnavailableException)) throw error;
      const details = (error.getResponse() as { error?: Record<string, unknown> }).error ?? {};
      throw new ServiceUnavailableException(`Unhealthy: ${Object.keys(details).join(', ') || 'unknown'} not answering`);
    }
  }
}
