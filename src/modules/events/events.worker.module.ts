import { Module } from '@nestjs/common';
import { EventDispatcher } from './application/event-dispatcher.service';
import { WebhookSender } from './application/webhook-sender.service';
import { EventsModule } from './events.module';
import { DeliverWebhookHandler, DispatchEventsHandler, EventsScheduler, PruneAuditLogHandler } from './infrastructure/events.handlers';
import { OutboxListener } from './infrastructure/outbox-listener';

/**
 * Dispatch and delivery as the worker runs them. Payloads carry resources as the API shows them:
 * the modules whose resources events name register their renderers with EventResources, and the
 * worker's root module (WorkerModule) imports them.
 */
@Module({
  imports: [EventsModule],
  providers: [EventDispatcher, WebhookSender, DispatchEventsHandler, DeliverWebhookHandler, PruneAuditLogHandler, EventsScheduler, OutboxListener],
})
export class EventsWorkerModule {}
