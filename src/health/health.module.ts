import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { ApiInformationController } from './api-information.controller';
import { HealthController } from './health.controller';
import { RedisHealthIndicator } from './redis.health';

@Module({
  imports: [TerminusModule.forRoot({ logger: false })],
  controllers: [HealthController, ApiInformationController],
  providers: [RedisHealthIndicator],
})
export class HealthModule {}
