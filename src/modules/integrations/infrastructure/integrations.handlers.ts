import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { HandlesJob, JobHandler } from '../../../jobs/job-handler';
import { JobPort } from '../../../jobs/job-port';
import { IntegrationEventSender } from '../application/integration-event-sender';
import { DeliverIntegrationEvent, DeliverIntegrationEventPayload, SweepIntegrationEvents } from '../application/integrations.jobs';

@HandlesJob(DeliverIntegrationEvent)
export class DeliverIntegrationEventHandler implements JobHandler<DeliverIntegrationEventPayload> {
  constructor(private readonly sender: IntegrationEventSender) {}

  handle(payload: DeliverIntegrationEventPayload): Promise<unknown> {
    return this.sender.send(payload.eventId, payload.attempt);
  }
}

@HandlesJob(SweepIntegrationEvents)
export class SweepIntegrationEventsHandler implements JobHandler<Record<string, never>> {
  constructor(private readonly sender: IntegrationEventSender) {}

  async handle(): Promise<{ requeued: number }> {
    return { requeued: await this.sender.sweep() };
  }
}

/** Every minute, events whose try was lost go out again (an upsert: every worker schedules it at start). */
@Injectable()
export class SweepIntegrationEventsScheduler implements OnApplicationBootstrap {
  constructor(private readonly jobs: JobPort) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.jobs.schedule(SweepIntegrationEvents, { key: SweepIntegrationEvents.name, everyMs: 60_000 }, {});
  }
}
