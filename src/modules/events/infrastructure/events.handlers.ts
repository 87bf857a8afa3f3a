import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { APP_CONFIG, AppConfig, CLOCK, Clock } from '@app/common';
import { HandlesJob, JobContext, JobHandler } from '../../../jobs/job-handler';
import { JobPort } from '../../../jobs/job-port';
import { EventDispatcher } from '../application/event-dispatcher.service';
import { DeliverWebhook, DeliverWebhookPayload, DispatchEvents, PruneAuditLog } from '../application/events.jobs';
import { WebhookSender } from '../application/webhook-sender.service';
import { AuditLogRepository } from './audit-log.repository';
import { OutboxRepository } from './outbox.repository';

const DAY_MS = 24 * 60 * 60 * 1000;

@HandlesJob(DispatchEvents)
export class DispatchEventsHandler implements JobHandler<Record<string, never>> {
  constructor(private readonly dispatcher: EventDispatcher) {}

  async handle(): Promise<{ deliveries: number; swept: number }> {
    const deliveries = await this.dispatcher.dispatchPending();
    const swept = await this.dispatcher.sweepStuck();
    return { deliveries, swept };
  }
}

@HandlesJob(DeliverWebhook)
export class DeliverWebhookHandler implements JobHandler<DeliverWebhookPayload> {
  constructor(private readonly sender: WebhookSender) {}

  async handle(payload: DeliverWebhookPayload, context: JobContext): Promise<{ outcome: string }> {
    return { outcome: await this.sender.send(payload, context.jobId) };
  }
}

@HandlesJob(PruneAuditLog)
export class PruneAuditLogHandler implements JobHandler<Record<string, never>> {
  constructor(
    private readonly audit: AuditLogRepository,
    private readonly outbox: OutboxRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async handle(): Promise<{ auditEntries: number; events: number }> {
    const now = this.clock.now().getTime();
    const auditEntries = await this.audit.prune(new Date(now - this.config.auditRetentionDays * DAY_MS));
    const events = await this.outbox.pruneDispatched(new Date(now - 7 * DAY_MS));
    return { auditEntries, events };
  }
}

/** The two repeating jobs, scheduled by every worker at start (an upsert under one key each). */
@Injectable()
export class EventsScheduler implements OnApplicationBootstrap {
  constructor(
    private readonly jobs: JobPort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.jobs.schedule(DispatchEvents, { key: DispatchEvents.name, everyMs: this.config.eventsSweepMs }, {});
    await this.jobs.schedule(PruneAuditLog, { key: PruneAuditLog.name, everyMs: DAY_MS }, {});
  }
}
