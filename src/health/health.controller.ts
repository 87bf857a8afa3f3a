import { Controller, Get, ServiceUnavailableException } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { Public } from '../modules/identity/api/auth.decorators';
import { RedisHealthIndicator } from './redis.health';

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly db: TypeOrmHealthIndicator,
    private readonly redis: RedisHealthIndicator,
  ) {}

  @Get()
  @Public()
  @HealthCheck()
  @ApiOperation({ summary: '200 when PostgreSQL and Redis answer, 503 otherwise' })
  async check() {
    try {
      return await this.health.check([() => this.db.pingCheck('postgres', { timeout: 1000 }), () => this.redis.check('redis')]);
    } catch (error) {
      if (!(error instanceof ServiceUnavailableException)) throw error;
      const details = (error.getResponse() as { error?: Record<string, unknown> }).error ?? {};
      throw new ServiceUnavailableException(`Unhealthy: ${Object.keys(details).join(', ') || 'unknown'} not answering`);
    }
  }
}
