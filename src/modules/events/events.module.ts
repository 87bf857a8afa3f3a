import { Module } from '@nestjs/common';
import { AuditEventPresenter } from './api/audit-event.presenter';
import { AuditEventsController } from './api/audit-events.controller';
import { AuditLogController } from './api/audit-log.controller';
import { EventPresenter } from './api/event.presenters';
import { WebhooksController } from './api/webhooks.controller';
import { AuditLogService } from './application/audit-log.service';
import { WebhooksService } from './application/webhooks.service';
import { AuditLogRepository } from './infrastructure/audit-log.repository';
import { DeliveriesRepository } from './infrastructure/deliveries.repository';
import { OutboxRepository } from './infrastructure/outbox.repository';
import { WebhooksRepository } from './infrastructure/webhooks.repository';

/** Webhooks and the audit log as the API serves them. The outbox itself is EventsCoreModule. */
@Module({
  controllers: [WebhooksController, AuditLogController, AuditEventsController],
  providers: [WebhooksService, AuditLogService, EventPresenter, AuditEventPresenter, WebhooksRepository, DeliveriesRepository, AuditLogRepository, OutboxRepository],
  exports: [WebhooksRepository, DeliveriesRepository, AuditLogRepository, OutboxRepository],
})
export class EventsModule {}
