import { Module } from '@nestjs/common';
import { ChangeRequestsModule } from '../change-requests/change-requests.module';
import { CommentsModule } from '../comments/comments.module';
import { OrganizationsModule } from '../organizations/organizations.module';
import { SitesModule } from '../sites/sites.module';
import { TranslationsModule } from '../translations/translations.module';
import { OpenAPIModule } from '../openapi/openapi.module';
import { EventDispatcher } from './application/event-dispatcher.service';
import { WebhookSender } from './application/webhook-sender.service';
import { EventsModule } from './events.module';
import { DeliverWebhookHandler, DispatchEventsHandler, EventsScheduler, PruneAuditLogHandler } from './infrastructure/events.handlers';
import { OutboxListener } from './infrastructure/outbox-listener';

/**
 * Dispatch and delivery as the worker runs them. The modules whose resources events name are
 * imported so their renderers are registered: payloads carry resources as the API shows them.
 */
@Module({
  imports: [EventsModule, ChangeRequestsModule, CommentsModule, OrganizationsModule, SitesModule, TranslationsModule, OpenAPIModule],
  providers: [EventDispatcher, WebhookSender, DispatchEventsHandler, DeliverWebhookHandler, PruneAuditLogHandler, EventsScheduler, OutboxListener],
})
export class EventsWorkerModule {}
