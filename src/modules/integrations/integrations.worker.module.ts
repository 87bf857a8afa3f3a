import { Module } from '@nestjs/common';
import { DeliverIntegrationEventHandler, SweepIntegrationEventsHandler, SweepIntegrationEventsScheduler } from './infrastructure/integrations.handlers';
import { IntegrationsModule } from './integrations.module';

/** Events sent to integrations' services, as the worker runs them. */
@Module({ imports: [IntegrationsModule], providers: [DeliverIntegrationEventHandler, SweepIntegrationEventsHandler, SweepIntegrationEventsScheduler] })
export class IntegrationsWorkerModule {}
