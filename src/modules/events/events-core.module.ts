import { Global, Module } from '@nestjs/common';
import { EventOutbox } from './application/event-outbox';
import { EventResources } from './application/event-resources';
import { OutboxConsumers } from './application/outbox-consumers';
import { AuditNotes } from './application/audit-notes';
import { AuditTrail } from './infrastructure/audit-trail.subscriber';

/**
 * What every process with use cases needs: the outbox use cases record events in, the registry
 * where modules say how their resources are presented, and the audit trail's subscriber. Global,
 * so a module announcing a change does not depend on the webhook machinery.
 */
@Global()
@Module({
  providers: [EventOutbox, EventResources, OutboxConsumers, AuditTrail, { provide: AuditNotes, useExisting: AuditTrail }],
  exports: [EventOutbox, EventResources, OutboxConsumers, AuditTrail, AuditNotes],
})
export class EventsCoreModule {}
