import { Injectable } from '@nestjs/common';
import type { Tx } from '../../../database/transactions';
import type { EventType, ResourceKind } from '../domain/event-types';

/** A domain event as other modules read it from the outbox. */
export interface OutboxEvent {
  id: string;
  type: EventType;
  organizationId: string;
  spaceId: string | null;
  resource: { kind: ResourceKind; id: string };
  data: Record<string, unknown>;
  actor: { type: string; userId?: string };
  createdAt: Date;
}

/**
 * Reads a batch of events inside the dispatcher's transaction (so what it writes commits with the
 * batch being marked dispatched, and a second run writes nothing twice); may return work to do
 * once that transaction has committed (queueing jobs).
 */
export type OutboxConsumer = (events: OutboxEvent[], tx: Tx) => Promise<(() => Promise<void>) | void>;

/** Modules besides webhooks that act on domain events (integrations) register here; the events module knows nothing of them. */
@Injectable()
export class OutboxConsumers {
  private readonly consumers: OutboxConsumer[] = [];

  register(consumer: OutboxConsumer): void {
    this.consumers.push(consumer);
  }

  async consume(events: OutboxEvent[], tx: Tx): Promise<Array<() => Promise<void>>> {
    const after: Array<() => Promise<void>> = [];
    for (const consumer of this.consumers) {
      const work = await consumer(events, tx);
      if (work) after.push(work);
    }
    return after;
  }
}
