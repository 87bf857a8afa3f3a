import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, newId } from '@app/common';
import { Tx } from '../../../database/transactions';
import { ActorContexts } from '../../../core/context/actor-context';
import { NewDomainEvent } from '../domain/event-types';
import { AuditTrail } from '../infrastructure/audit-trail.subscriber';

/** The channel a commit with new events notifies; the worker's dispatcher listens on it. */
export const EVENTS_CHANNEL = 'domain_events';

/**
 * Where use cases announce what they changed: the event is a row written with the change, in
 * its transaction, so a rolled-back change announces nothing and a committed one is never lost.
 * The NOTIFY inside the transaction reaches the dispatcher only when it commits.
 */
@Injectable()
export class EventOutbox {
  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly audit: AuditTrail,
  ) {}

  async record(tx: Tx, event: NewDomainEvent): Promise<void> {
    const context = ActorContexts.current();
    const actor = context?.actor ?? { type: 'system', job: 'unknown' };
    // One round trip: the row and the notification (delivered on commit, folded with others of the transaction).
    await tx.query(
      `WITH added AS (
         INSERT INTO domain_events (id, organization_id, type, space_id, resource_kind, resource_id, data, actor, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING 1)
       SELECT pg_notify('${EVENTS_CHANNEL}', '') FROM added`,
      [newId(), event.organizationId, event.type, event.spaceId ?? null, event.resource.kind, event.resource.id, event.data ?? {}, actor, this.clock.now()],
    );
    // Even a change made only with raw SQL leaves an audit entry when it announces itself.
    if (tx.queryRunner) this.audit.noteEvent(tx.queryRunner, event);
  }
}
